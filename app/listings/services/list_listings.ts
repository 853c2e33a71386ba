import { inject } from '@adonisjs/core'
import { ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import type { ListingState } from '#listings/models/listing'
import ListingStore from '#listings/stores/listing_store'
import { toRecord } from './listing_record.js'
import { invalid } from './listing_failures.js'

export const PER_PAGE = 100

/** A page of the app's listings of an agency, optionally of one operator or state. */
@inject()
export default class ListListings {
  constructor(
    private directory: AgencyDirectory,
    private listings: ListingStore
  ) {}

  async execute(
    caller: Caller,
    agency: AgencyView,
    filters: { operator?: string; state?: ListingState; page: number }
  ) {
    let operatorId: number | undefined
    if (filters.operator) {
      const operator = await this.directory.member(agency.id, filters.operator)
      if (!operator) return invalid([{ field: 'operatorFilter', issue: 'not_member' }])
      operatorId = operator.id
    }
    const page = await this.listings.list(caller.id, agency.id, {
      operatorId,
      state: filters.state,
      page: filters.page,
      perPage: PER_PAGE,
    })
    return ok({ agency, total: page.total, records: page.rows.map(toRecord) })
  }
}
