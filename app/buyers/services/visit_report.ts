/*
 * Daily visit counts of an agency's listings for one app (GET /v3/visitas):
 * the app's own listings only, one index-backed query.
 */
import { inject } from '@adonisjs/core'
import VisitStore, { type VisitQuery, type VisitRow } from '#buyers/stores/visit_store'

export type { VisitQuery, VisitRow }

@inject()
export default class VisitReport {
  constructor(private store: VisitStore) {}

  execute(query: VisitQuery): Promise<VisitRow[]> {
    return this.store.report(query)
  }
}
