/*
 * Daily visit counts of an agency's listings for one app (GET /v3/visitas):
 * the app's own listings only, one index-backed query.
 */
import db from '@adonisjs/lucid/services/db'

export type VisitQuery = {
  appId: number
  agencyId: number
  from: string
  to: string
  externalId?: string
  operatorId?: number
}

export type VisitRow = { externalId: string; day: string; visits: number }

export default class VisitReport {
  async execute(query: VisitQuery): Promise<VisitRow[]> {
    const q = db
      .from('listing_visits')
      .where('app_id', query.appId)
      .where('agency_id', query.agencyId)
      .whereBetween('day', [query.from, query.to])
      .where('visits', '>', 0)
      .select('external_id', db.raw(`to_char(day, 'YYYY-MM-DD') as day`), 'visits')
      .orderBy([{ column: 'day' }, { column: 'external_id' }])
    // ExternalIds are case-insensitive (docs/design.md §4).
    if (query.externalId) q.whereRaw('lower(external_id) = lower(?)', [query.externalId])
    if (query.operatorId !== undefined) q.where('operator_id', query.operatorId)
    const rows = await q
    return rows.map((row) => ({ externalId: row.external_id, day: row.day, visits: row.visits }))
  }
}
