/*
 * The `invitations.poll` cron job: expires overdue invitations, queues one
 * reminder mail at half-life, and queues any `invitaciones` app event still
 * owed. Each step is a conditional update, so overlapping runs are harmless.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import runner from '#core/jobs/main'
import Invitation from '#agencies/models/invitation'
import Agency from '#agencies/models/agency'
import InvitationEvents from './invitation_events.js'
import { affected } from './affected.js'
import type { InvitationMailJob } from './invite_agency.js'

export type PollReport = { expired: number; reminded: number; events: number }

@inject()
export default class PollInvitations {
  constructor(private events: InvitationEvents) {}

  async execute(): Promise<PollReport> {
    const now = DateTime.now()
    const expired = await Invitation.query()
      .where('state', 'pending')
      .where('expires_at', '<=', now.toSQL())
      .update({ state: 'expired', updatedAt: now.toSQL() })

    let reminded = 0
    const due = await Invitation.query()
      .where('state', 'pending')
      .whereNull('reminded_at')
      .where('expires_at', '>', now.toSQL())
      .whereRaw('sent_at + (expires_at - sent_at) / 2 <= ?', [now.toSQL()])
      .select('id')
    for (const { id } of due) {
      await db.transaction(async (trx) => {
        const invitation = await Invitation.query({ client: trx })
          .where('id', id)
          .where('state', 'pending')
          .whereNull('reminded_at')
          .forUpdate()
          .first()
        if (!invitation) return
        // The reminder is never throttled (it comes at half-life), but it starts a mail window.
        invitation.merge({
          remindedAt: now,
          lastMailedAt: now,
          mailSequence: invitation.mailSequence + 1,
        })
        await invitation.save()
        await runner.send(
          'agencies.mail',
          {
            invitationId: invitation.id,
            sequence: invitation.mailSequence,
            kind: 'reminder',
          } satisfies InvitationMailJob,
          { trx }
        )
        reminded += 1
      })
    }

    let events = 0
    const owed = await Invitation.query()
      .where('state', 'accepted')
      .whereNull('event_queued_at')
      .select('id')
    for (const { id } of owed) {
      await db.transaction(async (trx) => {
        const invitation = await Invitation.query({ client: trx })
          .where('id', id)
          .whereNull('event_queued_at')
          .forUpdate()
          .first()
        if (!invitation?.agencyId) return
        const agency = await Agency.find(invitation.agencyId, { client: trx })
        if (!agency || !(await this.events.accepted(invitation, agency, trx))) return
        invitation.eventQueuedAt = DateTime.now()
        await invitation.save()
        events += 1
      })
    }
    return { expired: affected(expired), reminded, events }
  }
}
