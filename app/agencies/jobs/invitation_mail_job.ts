import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import SendInvitationMail from '#agencies/services/send_invitation_mail'
import type { InvitationMailJob } from '#agencies/services/invite_agency'

/** `agencies.mail`: an invitation or reminder mail. */
@inject()
export default class InvitationMailJobHandler implements JobHandler<InvitationMailJob> {
  constructor(private sender: SendInvitationMail) {}

  handle(data: InvitationMailJob) {
    return this.sender.execute(data)
  }
}
