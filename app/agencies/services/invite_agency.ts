/*
 * POST /v3/agencias: stores (or refreshes) the app's pending invitation and
 * queues its mail in the same transaction, so an accepted request never loses
 * its mail even if the process dies right after answering.
 *
 * Mail throttle (docs/design.md §13): at most one mail per invitation every
 * MAIL_WINDOW_MINUTES, however many POSTs arrive. The decision is taken on the
 * invitation's locked row (a new one is serialized by the unique index
 * `invitations_one_pending`), so concurrent POSTs queue exactly one mail.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'
import UnitOfWork from '#core/database/unit_of_work'
import type Invitation from '#agencies/models/invitation'
import AgencyStore from '#agencies/stores/agency_store'
import InvitationStore from '#agencies/stores/invitation_store'
import { normalizeEmail } from './emails.js'
import { hashToken, newNonce, tokenFor } from './invitation_tokens.js'

export type InvitationInput = {
  adminEmail: string
  tradeName: string
  regionId: number | null
  cityId: number | null
  address: string | null
  phone: string | null
  phoneIsWhatsapp: boolean
  adminFirstName: string | null
  adminLastName: string | null
}

/** One invitation mail per address (and app) per this many minutes. */
export const MAIL_WINDOW_MINUTES = 10

export type InvitationMailJob = {
  invitationId: number
  sequence: number
  kind: 'invitation' | 'reminder'
}

@inject()
export default class InviteAgency {
  constructor(
    private agencies: AgencyStore,
    private invitations: InvitationStore,
    private unitOfWork: UnitOfWork,
    private jobs: JobRunner
  ) {}

  async execute(appId: number, input: InvitationInput): Promise<Result<Invitation, 'email_known'>> {
    // Two first POSTs at once: the loser finds the winner's pending invitation and re-sends it.
    return retryOnUniqueViolation(['invitations_one_pending'], () => this.#invite(appId, input))
  }

  async #invite(appId: number, input: InvitationInput): Promise<Result<Invitation, 'email_known'>> {
    const adminEmail = normalizeEmail(input.adminEmail)
    return this.unitOfWork.run(async (tx) => {
      if (await this.agencies.emailKnown(adminEmail, tx)) return fail('email_known')
      const now = DateTime.now()
      let pending = await this.invitations.pendingForUpdate(appId, adminEmail, tx)
      if (pending && pending.expiresAt <= now) {
        await this.invitations.update(pending, { state: 'expired' }, tx)
        pending = null
      }
      // A repeated POST while pending takes the data just sent and a fresh validity, and
      // re-sends the same link unless a mail went out within the window.
      const mail =
        !pending?.lastMailedAt ||
        pending.lastMailedAt <= now.minus({ minutes: MAIL_WINDOW_MINUTES })
      const mailSequence = pending?.mailSequence ?? 0
      const changes = {
        ...input,
        adminEmail,
        sentAt: now,
        expiresAt: now.plus({ days: settings.invitationTtlDays }),
        remindedAt: null,
        ...(mail ? { mailSequence: mailSequence + 1, lastMailedAt: now } : {}),
      }
      let invitation: Invitation
      if (pending) invitation = await this.invitations.update(pending, changes, tx)
      else {
        const nonce = newNonce()
        invitation = await this.invitations.create(
          {
            appId,
            tokenNonce: nonce,
            tokenHash: hashToken(tokenFor(nonce)),
            state: 'pending',
            mailSequence: 0,
            mailedSequence: 0,
            ...changes,
          },
          tx
        )
      }
      if (mail) {
        await this.jobs.send(
          'agencies.mail',
          {
            invitationId: invitation.id,
            sequence: invitation.mailSequence,
            kind: 'invitation',
          } satisfies InvitationMailJob,
          { trx: tx }
        )
      }
      return ok(invitation)
    })
  }
}
