/*
 * POST /registro/{token}: the invited person registers. One transaction
 * creates the agency, its administrator, main branch, default plan and the
 * link to the inviting app, and queues the app's `invitaciones` event.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import hash from '@adonisjs/core/services/hash'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'
import Invitation from '#agencies/models/invitation'
import type Agency from '#agencies/models/agency'
import CreateAgency from './create_agency.js'
import InvitationEvents from './invitation_events.js'
import { hashToken } from './invitation_tokens.js'

export type Registration = { firstName: string; lastName: string; password: string }

@inject()
export default class RegisterAgency {
  constructor(
    private createAgency: CreateAgency,
    private events: InvitationEvents
  ) {}

  /** The invitation a registration link points at, if it can still be used. */
  async pending(token: string): Promise<Result<Invitation, 'not_found' | 'gone'>> {
    const invitation = await Invitation.findBy('token_hash', hashToken(token))
    if (!invitation) return fail('not_found')
    if (invitation.state !== 'pending' || invitation.expiresAt <= DateTime.now())
      return fail('gone')
    return ok(invitation)
  }

  async execute(token: string, input: Registration): Promise<Result<Agency, 'not_found' | 'gone'>> {
    const passwordHash = await hash.make(input.password)
    // Two apps' invitations of one e-mail registered at once: the replay of the loser finds the e-mail known (410).
    return retryOnUniqueViolation(['agencies_admin_email_unique', 'operators_email_unique'], () =>
      this.#register(token, input, passwordHash)
    )
  }

  async #register(
    token: string,
    input: Registration,
    passwordHash: string
  ): Promise<Result<Agency, 'not_found' | 'gone'>> {
    return db.transaction(async (trx) => {
      const found = await Invitation.query({ client: trx })
        .where('token_hash', hashToken(token))
        .select('id', 'admin_email')
        .first()
      if (!found) return fail('not_found')
      // Every pending invitation of the e-mail, locked in id order: registrations of one e-mail through
      // several apps queue here instead of deadlocking (the winner expires the others' rows).
      await Invitation.query({ client: trx })
        .where('admin_email', found.adminEmail)
        .where('state', 'pending')
        .orderBy('id')
        .forUpdate()
      const invitation = await Invitation.query({ client: trx })
        .where('id', found.id)
        .forUpdate()
        .first()
      if (!invitation) return fail('not_found')
      if (invitation.state !== 'pending' || invitation.expiresAt <= DateTime.now())
        return fail('gone')

      const created = await this.createAgency.execute(
        {
          appId: invitation.appId,
          adminEmail: invitation.adminEmail,
          tradeName: invitation.tradeName,
          admin: {
            firstName: input.firstName,
            lastName: input.lastName,
            phones: invitation.phone ? [invitation.phone] : [],
            passwordHash,
            createdViaApi: true,
          },
          mainBranch: {
            regionId: invitation.regionId,
            cityId: invitation.cityId,
            address: invitation.address,
            phone: invitation.phone,
            phoneIsWhatsapp: invitation.phoneIsWhatsapp,
          },
        },
        trx
      )
      // Registered meanwhile through another app's invitation: this link is spent.
      if (!created.ok) {
        invitation.useTransaction(trx).state = 'expired'
        await invitation.save()
        return fail('gone')
      }
      const { agency } = created.value
      invitation
        .useTransaction(trx)
        .merge({ state: 'accepted', acceptedAt: DateTime.now(), agencyId: agency.id })
      await invitation.save()
      // Other apps' pending invitations for this e-mail can no longer be accepted.
      await Invitation.query({ client: trx })
        .where('admin_email', invitation.adminEmail)
        .where('state', 'pending')
        .whereNot('id', invitation.id)
        .update({ state: 'expired', updatedAt: DateTime.now().toSQL() })
      if (await this.events.accepted(invitation, agency, trx)) {
        invitation.eventQueuedAt = DateTime.now()
        await invitation.save()
      }
      return ok(agency)
    })
  }
}
