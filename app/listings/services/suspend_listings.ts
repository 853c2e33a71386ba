/*
 * Listings suspended by something other than their app's request (docs/design.md
 * §14): the agency or the responsible operator was suspended, or the plan's
 * capacity fell below the active count. Runs inside the agencies module's
 * transaction (registered in app/listings/boot.ts) and tells each listing's
 * app through a PublicacionSuspendida with its Causa.
 */
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { ModelQueryBuilderContract } from '@adonisjs/lucid/types/model'
import type { SuspensionEffects } from '#agencies/hooks'
import Listing from '#listings/models/listing'
import ListingEvents, { type StateCause } from './listing_events.js'
import { holdActivations } from './apply_edit.js'

type Active = ModelQueryBuilderContract<typeof Listing>

export default class SuspendListings implements SuspensionEffects {
  agencySuspended(agencyId: number, trx: TransactionClientContract) {
    return this.#suspend(trx, 'AgenciaSuspendida', (query) => query.where('agency_id', agencyId))
  }

  operatorSuspended(operatorId: number, trx: TransactionClientContract) {
    return this.#suspend(trx, 'OperadorSuspendido', (query) =>
      query.where('operator_id', operatorId)
    )
  }

  /**
   * Keeps the `capacity` longest-untouched active listings; the most recently
   * updated go. Counted under the agency's activation lock: an activation in
   * flight read the old plan, so it must be counted here once it commits.
   */
  async capacityLowered(agencyId: number, capacity: number, trx: TransactionClientContract) {
    await holdActivations(trx, agencyId)
    const [{ count }] = await trx
      .from('listings')
      .where('agency_id', agencyId)
      .where('state', 'active')
      .count('* as count')
    const excess = Number(count) - capacity
    if (excess <= 0) return 0
    return this.#suspend(trx, 'Plan', (query) =>
      query
        .where('agency_id', agencyId)
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(excess)
    )
  }

  async #suspend(
    trx: TransactionClientContract,
    cause: StateCause,
    scope: (query: Active) => Active
  ) {
    const listings = await scope(
      Listing.query({ client: trx }).where('state', 'active').forUpdate()
    )
    if (listings.length === 0) return 0
    await trx
      .from('listings')
      .whereIn(
        'id',
        listings.map((listing) => listing.id)
      )
      .update({ state: 'suspended', revision: db.raw('revision + 1'), updated_at: new Date() })
    const events = new ListingEvents()
    for (const listing of listings) await events.stateChanged(trx, listing, 'suspended', cause)
    return listings.length
  }
}
