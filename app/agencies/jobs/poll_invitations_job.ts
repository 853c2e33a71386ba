import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import type { JobHandler } from '#core/jobs/types'
import PollInvitations from '#agencies/services/poll_invitations'

/** `invitations.poll` (cron): expiry, reminders, owed app events. */
@inject()
export default class PollInvitationsJob implements JobHandler {
  constructor(private poll: PollInvitations) {}

  async handle() {
    const report = await this.poll.execute()
    logger.info(report, 'invitations polled')
  }
}
