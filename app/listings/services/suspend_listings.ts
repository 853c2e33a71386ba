/*
 * Listings suspended by something other than their app's request (docs/design.md
 * §14): the agency or the responsible operator was suspended, or the plan's
 * capacity fell below the active count. Runs inside the agencies module's
 * transaction (registered in app/listings/provider.ts) and tells each listing's
 * app through a PublicacionSuspendida with its Causa.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import type { SuspensionEffects } from '#agencies/hooks'
import ListingStore, { type ActiveScope } from '#listings/stores/listing_store'
import ListingEvents, { type StateCause } from './listing_events.js'

@inject()
export default class SuspendListings implements SuspensionEffects {
  constructor(
    private listings: ListingStore,
    private events: ListingEvents
  ) {}

  agencySuspended(agencyId: number, tx: Tx) {
    return this.#suspend(tx, 'agency_suspended', { agencyId })
  }

  operatorSuspended(operatorId: number, tx: Tx) {
    return this.#suspend(tx, 'operator_suspended', { operatorId })
  }

  /**
   * Keeps the `capacity` longest-untouched active listings; the most recently
   * updated go. Counted under the agency's activation lock: an activation in
   * flight read the old plan, so it must be counted here once it commits.
   */
  async capacityLowered(agencyId: number, capacity: number, tx: Tx) {
    await this.listings.holdActivations(agencyId, tx)
    const excess = (await this.listings.countActive(agencyId, tx)) - capacity
    if (excess <= 0) return 0
    return this.#suspend(tx, 'plan', { agencyId, newest: excess })
  }

  async #suspend(tx: Tx, cause: StateCause, scope: ActiveScope) {
    const listings = await this.listings.lockActive(scope, tx)
    if (listings.length === 0) return 0
    await this.listings.suspend(
      listings.map((listing) => listing.id),
      tx
    )
    for (const listing of listings) await this.events.stateChanged(listing, 'suspended', cause, tx)
    return listings.length
  }
}
