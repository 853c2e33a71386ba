/*
 * The one place the `invitaciones` app event (docs/design.md §9) is queued, in the
 * caller's transaction. The invitation records it (event_queued_at), so that
 * `invitations.poll` queues any event still owed.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AppEvents from '#apps/services/app_events'
import type Invitation from '#agencies/models/invitation'
import type Agency from '#agencies/models/agency'
import { agencyRef } from '#agencies/transformers/agency_transformer'

@inject()
export default class InvitationEvents {
  constructor(private appEvents: AppEvents) {}

  /** Queues the event (a no-op when the app is not subscribed); true once done. */
  async accepted(invitation: Invitation, agency: Agency, trx: TransactionClientContract) {
    await this.appEvents.emit(
      invitation.appId,
      'invitaciones',
      {
        Tipo: 'InvitacionAceptada',
        Momento: (invitation.acceptedAt ?? DateTime.now()).toISO(),
        Agencia: agencyRef(agency),
        // The envelope's resource is the agency that registered (docs/design.md §9, §19).
        Recurso: { href: agencyRef(agency).href, title: agency.tradeName },
      },
      trx
    )
    return true
  }
}
