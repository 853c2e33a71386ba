/*
 * POST /registro/{token}: the invited person registers. One transaction
 * creates the agency, its administrator, main branch, default plan and the
 * link to the inviting app, and queues the app's `invitaciones` event.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import hash from '@adonisjs/core/services/hash'
import UnitOfWork, { type Tx } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'
import { retryOnUniqueViolation } from '#core/database/errors'
import type Invitation from '#agencies/models/invitation'
import type Agency from '#agencies/models/agency'
import InvitationStore from '#agencies/stores/invitation_store'
import CreateAgency from './create_agency.js'
import InvitationEvents from './invitation_events.js'
import { hashToken } from './invitation_tokens.js'

export type Registration = { firstName: string; lastName: string; password: string }
export type RegistrationFailure = 'not_found' | 'gone'

/** Whether an invitation can still be accepted. */
function usable(invitation: Invitation) {
  return invitation.state === 'pending' && invitation.expiresAt > DateTime.now()
}

@inject()
export default class RegisterAgency {
  constructor(
    private invitations: InvitationStore,
    private createAgency: CreateAgency,
    private events: InvitationEvents,
    private unitOfWork: UnitOfWork
  ) {}

  /** The invitation a registration link points at, if it can still be used. */
  async pending(token: string): Promise<Result<Invitation, RegistrationFailure>> {
    const invitation = await this.invitations.byTokenHash(hashToken(token))
    if (!invitation) return fail('not_found')
    return usable(invitation) ? ok(invitation) : fail('gone')
  }

  async execute(token: string, input: Registration): Promise<Result<Agency, RegistrationFailure>> {
    const passwordHash = await hash.make(input.password)
    // Two apps' invitations of one e-mail registered at once: the replay of the loser finds the e-mail known (410).
    return retryOnUniqueViolation(['agencies_admin_email_unique', 'operators_email_unique'], () =>
      this.unitOfWork.run((tx) => this.#register(token, input, passwordHash, tx))
    )
  }

  async #register(
    token: string,
    input: Registration,
    passwordHash: string,
    tx: Tx
  ): Promise<Result<Agency, RegistrationFailure>> {
    const found = await this.invitations.byTokenHash(hashToken(token), tx)
    if (!found) return fail('not_found')
    // Every pending invitation of the e-mail, locked in id order: registrations of one e-mail through
    // several apps queue here instead of deadlocking (the winner expires the others' rows).
    await this.invitations.lockPendingOf(found.adminEmail, tx)
    const invitation = await this.invitations.lock(found.id, tx)
    if (!invitation) return fail('not_found')
    if (!usable(invitation)) return fail('gone')

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
      tx
    )
    // Registered meanwhile through another app's invitation: this link is spent.
    if (!created.ok) {
      await this.invitations.update(invitation, { state: 'expired' }, tx)
      return fail('gone')
    }
    const { agency } = created.value
    const now = DateTime.now()
    await this.invitations.update(
      invitation,
      { state: 'accepted', acceptedAt: now, agencyId: agency.id },
      tx
    )
    // Other apps' pending invitations for this e-mail can no longer be accepted.
    await this.invitations.expireOtherPending(invitation.adminEmail, invitation.id, now, tx)
    if (await this.events.accepted(invitation, agency, tx)) {
      await this.invitations.update(invitation, { eventQueuedAt: DateTime.now() }, tx)
    }
    return ok(agency)
  }
}
