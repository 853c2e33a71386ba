/*
 * The reads of stock syncs (docs/design.md §15): only the calling app's syncs
 * of the agency exist for it.
 */
import { inject } from '@adonisjs/core'
import type { Caller } from '#core/auth/app_scoped'
import type { AgencyView } from '#agencies/services/agency_directory'
import SyncStore, { type SyncOutcome } from '#listings/stores/sync_store'
import { KEEP_DAYS } from './run_sync.js'

export const RESULTS_PER_PAGE = 100

@inject()
export default class SyncReader {
  constructor(private syncs: SyncStore) {}

  find(caller: Caller, agency: AgencyView, id: number) {
    return this.syncs.find(caller.id, agency.id, id)
  }

  recent(caller: Caller, agency: AgencyView) {
    return this.syncs.recent(caller.id, agency.id, KEEP_DAYS)
  }

  async results(
    caller: Caller,
    agency: AgencyView,
    id: number,
    filter: { outcome?: SyncOutcome; page: number }
  ) {
    const sync = await this.syncs.find(caller.id, agency.id, id)
    if (!sync) return null
    const page = await this.syncs.results(sync.id, { ...filter, perPage: RESULTS_PER_PAGE })
    return { sync, ...page }
  }
}
