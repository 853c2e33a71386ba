import { inject } from '@adonisjs/core'
import { ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import type { ListingState } from '#listings/models/listing'
import ListingReader from './listing_reader.js'
import { invalid } from './listing_failures.js'

export const PER_PAGE = 100

/** A page of the app's listings of an agency, optionally of one operator or state. */
@inject()
export default class ListListings {
  constructor(
    private directory: AgencyDirectory,
    private reader: ListingReader
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
    const page = await this.reader.list(caller, agency.id, {
      operatorId,
      state: filters.state,
      page: filters.page,
      perPage: PER_PAGE,
    })
    return ok({ agency, ...page })
  }
}
