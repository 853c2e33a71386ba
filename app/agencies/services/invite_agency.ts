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
import db from '@adonisjs/lucid/services/db'
import runner from '#core/jobs/main'
import { settings } from '#core/settings'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'
import Invitation from '#agencies/models/invitation'
import { emailKnown } from './create_agency.js'
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

export default class InviteAgency {
  async execute(appId: number, input: InvitationInput): Promise<Result<Invitation, 'email_known'>> {
    // Two first POSTs at once: the loser finds the winner's pending invitation and re-sends it.
    return retryOnUniqueViolation(['invitations_one_pending'], () => this.#invite(appId, input))
  }

  async #invite(appId: number, input: InvitationInput): Promise<Result<Invitation, 'email_known'>> {
    const adminEmail = normalizeEmail(input.adminEmail)
    return db.transaction(async (trx) => {
      if (await emailKnown(adminEmail, trx)) return fail('email_known')
      const now = DateTime.now()
      let invitation = await Invitation.query({ client: trx })
        .where('app_id', appId)
        .where('admin_email', adminEmail)
        .where('state', 'pending')
        .forUpdate()
        .first()
      if (invitation && invitation.expiresAt <= now) {
        invitation.state = 'expired'
        await invitation.save()
        invitation = null
      }
      if (!invitation) {
        const nonce = newNonce()
        invitation = new Invitation().merge({
          appId,
          tokenNonce: nonce,
          tokenHash: hashToken(tokenFor(nonce)),
          state: 'pending',
          mailSequence: 0,
          mailedSequence: 0,
        })
      }
      // A repeated POST while pending takes the data just sent and a fresh validity, and
      // re-sends the same link unless a mail went out within the window.
      const mail =
        !invitation.lastMailedAt ||
        invitation.lastMailedAt <= now.minus({ minutes: MAIL_WINDOW_MINUTES })
      invitation.useTransaction(trx).merge({
        ...input,
        adminEmail,
        sentAt: now,
        expiresAt: now.plus({ days: settings.invitationTtlDays }),
        remindedAt: null,
        ...(mail ? { mailSequence: invitation.mailSequence + 1, lastMailedAt: now } : {}),
      })
      await invitation.save()
      if (mail) {
        await runner.send(
          'agencies.mail',
          {
            invitationId: invitation.id,
            sequence: invitation.mailSequence,
            kind: 'invitation',
          } satisfies InvitationMailJob,
          { trx }
        )
      }
      return ok(invitation)
    })
  }
}
