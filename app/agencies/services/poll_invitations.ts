/*
 * The `invitations.poll` cron job: expires overdue invitations, queues one
 * reminder mail at half-life, and queues any `invitaciones` app event still
 * owed. Each step is a conditional update, so overlapping runs are harmless.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import JobRunner from '#core/jobs/runner'
import UnitOfWork from '#core/database/unit_of_work'
import AgencyStore from '#agencies/stores/agency_store'
import InvitationStore from '#agencies/stores/invitation_store'
import InvitationEvents from './invitation_events.js'
import type { InvitationMailJob } from './invite_agency.js'

export type PollReport = { expired: number; reminded: number; events: number }

@inject()
export default class PollInvitations {
  constructor(
    private invitations: InvitationStore,
    private agencies: AgencyStore,
    private events: InvitationEvents,
    private unitOfWork: UnitOfWork,
    private jobs: JobRunner
  ) {}

  async execute(): Promise<PollReport> {
    const now = DateTime.now()
    const expired = await this.invitations.expireOverdue(now)

    let reminded = 0
    for (const id of await this.invitations.dueForReminder(now)) {
      await this.unitOfWork.run(async (tx) => {
        const invitation = await this.invitations.lock(id, tx, {
          state: 'pending',
          notReminded: true,
        })
        if (!invitation) return
        // The reminder is never throttled (it comes at half-life), but it starts a mail window.
        await this.invitations.update(
          invitation,
          { remindedAt: now, lastMailedAt: now, mailSequence: invitation.mailSequence + 1 },
          tx
        )
        await this.jobs.send(
          'agencies.mail',
          {
            invitationId: invitation.id,
            sequence: invitation.mailSequence,
            kind: 'reminder',
          } satisfies InvitationMailJob,
          { trx: tx }
        )
        reminded += 1
      })
    }

    let events = 0
    for (const id of await this.invitations.eventsOwed()) {
      await this.unitOfWork.run(async (tx) => {
        const invitation = await this.invitations.lock(id, tx, { eventOwed: true })
        if (!invitation?.agencyId) return
        const agency = await this.agencies.find(invitation.agencyId, tx)
        if (!agency || !(await this.events.accepted(invitation, agency, tx))) return
        await this.invitations.update(invitation, { eventQueuedAt: DateTime.now() }, tx)
        events += 1
      })
    }
    return { expired, reminded, events }
  }
}
