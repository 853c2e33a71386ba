/*
 * `catalog_lead_assignments`: when each agency last got a catalogue inquiry
 * from the model pages (docs/decisions/buyers.md, Buyers, "Catalogue inquiries").
 * The query builder for the read, written-out SQL for the upsert's increment.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'

const CATALOG_TURN_LOCK = 500

export default class CatalogAssignmentStore {
  /** Agency id → when it last got one (ms since the epoch); agencies that never did are absent. */
  async lastAssigned(agencyIds: number[], tx?: Tx): Promise<Map<number, number>> {
    const rows: { agency_id: number; last_assigned_at: Date }[] = await (tx ?? db)
      .from('catalog_lead_assignments')
      .whereIn('agency_id', agencyIds)
      .select('agency_id', 'last_assigned_at')
    return new Map(rows.map((row) => [row.agency_id, new Date(row.last_assigned_at).getTime()]))
  }

  /** Holds off other picks of the region until `tx` ends (advisory lock namespace 500, the buyers'). */
  async holdRegion(regionId: number, tx: Tx) {
    await tx.rawQuery('select pg_advisory_xact_lock(?, ?)', [CATALOG_TURN_LOCK, regionId])
  }

  /** The agency's turn is taken now: it goes to the back of the rotation. */
  async claimTurn(agencyId: number, tx?: Tx) {
    // clock_timestamp, not now(): turns claimed within one instant still follow each other.
    await (tx ?? db).rawQuery(
      `insert into catalog_lead_assignments (agency_id, assigned, last_assigned_at)
       values (?, 0, clock_timestamp())
       on conflict (agency_id) do update set last_assigned_at = clock_timestamp()`,
      [agencyId]
    )
  }

  /** Counts one catalogue inquiry received by the agency (its turn was claimed by the pick). */
  async recordAssigned(agencyId: number, tx?: Tx) {
    await (tx ?? db)
      .from('catalog_lead_assignments')
      .where('agency_id', agencyId)
      .increment('assigned', 1)
  }
}
