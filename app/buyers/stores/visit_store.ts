/*
 * `listing_visitors` (one row per visitor, listing and day) and
 * `listing_visits` (the daily counts). Style: the count is written-out SQL —
 * one data-modifying `with` inserts the visitor and bumps the day only when
 * the visitor is new (docs/decisions/buyers.md, Buyers, "Visits": one statement per
 * page view); the report is the query builder (dynamic filters).
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'

export type VisitedListing = {
  listingId: number
  appId: number
  agencyId: number
  externalId: string
  operatorId: number | null
}

export type VisitQuery = {
  appId: number
  agencyId: number
  from: string
  to: string
  externalId?: string
  operatorId?: number
}

export type VisitRow = { externalId: string; day: string; visits: number }

export default class VisitStore {
  /** Counts the visitor `visitorHash` on `listing` and `day`: true when new (counted), false when seen. */
  async count(listing: VisitedListing, day: string, visitorHash: Buffer, tx?: Tx) {
    const result = await (tx ?? db).rawQuery(
      `with fresh as (
         insert into listing_visitors (listing_id, day, visitor_hash) values (?, ?, ?)
         on conflict do nothing
         returning 1
       )
       insert into listing_visits (listing_id, day, app_id, agency_id, external_id, operator_id, visits)
       select ?, ?, ?, ?, ?, ?, 1 from fresh
       on conflict (listing_id, day) do update
         set visits = listing_visits.visits + 1, operator_id = excluded.operator_id
       returning visits`,
      [
        listing.listingId,
        day,
        visitorHash,
        listing.listingId,
        day,
        listing.appId,
        listing.agencyId,
        listing.externalId,
        listing.operatorId,
      ]
    )
    return result.rowCount > 0
  }

  /** Days with visits of the app's listings of the agency, by day then ExternalId. */
  async report(query: VisitQuery, tx?: Tx): Promise<VisitRow[]> {
    const client = tx ?? db
    const q = client
      .from('listing_visits')
      .where('app_id', query.appId)
      .where('agency_id', query.agencyId)
      .whereBetween('day', [query.from, query.to])
      .where('visits', '>', 0)
      .select('external_id', client.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'visits')
      .orderBy([{ column: 'day' }, { column: 'external_id' }])
    // ExternalIds are case-insensitive (docs/design.md §4).
    if (query.externalId) q.whereRaw('lower(external_id) = lower(?)', [query.externalId])
    if (query.operatorId !== undefined) q.where('operator_id', query.operatorId)
    const rows = await q
    return rows.map((row) => ({ externalId: row.external_id, day: row.day, visits: row.visits }))
  }

  /** Deletes the visitor rows of days before `day`. */
  async pruneVisitorsBefore(day: string, tx?: Tx) {
    await (tx ?? db).from('listing_visitors').where('day', '<', day).delete()
  }
}
