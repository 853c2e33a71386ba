/*
 * `catalog_lead_assignments`: when each agency last got a catalogue inquiry
 * from the model pages (docs/decisions.md, Buyers, "Catalogue inquiries").
 * The query builder for the read, written-out SQL for the upsert's increment.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'

export default class CatalogAssignmentStore {
  /** Agency id → when it last got one (ms since the epoch); agencies that never did are absent. */
  async lastAssigned(agencyIds: number[], tx?: Tx): Promise<Map<number, number>> {
    const rows: { agency_id: number; last_assigned_at: Date }[] = await (tx ?? db)
      .from('catalog_lead_assignments')
      .whereIn('agency_id', agencyIds)
      .select('agency_id', 'last_assigned_at')
    return new Map(rows.map((row) => [row.agency_id, new Date(row.last_assigned_at).getTime()]))
  }

  async recordAssigned(agencyId: number, tx?: Tx) {
    await (tx ?? db).rawQuery(
      `insert into catalog_lead_assignments (agency_id, assigned, last_assigned_at) values (?, 1, now())
       on conflict (agency_id) do update
         set assigned = catalog_lead_assignments.assigned + 1, last_assigned_at = now()`,
      [agencyId]
    )
  }
}
