import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory, { type AgencyView } from '#agencies/services/agency_directory'
import ListingReader, { type ListingRecord } from './listing_reader.js'

/** One listing of the app: the agency lookup plus one indexed query. */
@inject()
export default class ShowListing {
  constructor(
    private directory: AgencyDirectory,
    private reader: ListingReader
  ) {}

  async execute(
    caller: Caller,
    adminMail: string,
    externalId: string
  ): Promise<Result<{ agency: AgencyView; record: ListingRecord }, 'no_agency' | 'not_found'>> {
    const agency = await this.directory.forApp(caller.id, adminMail)
    if (!agency) return fail('no_agency')
    const record = await this.reader.find(caller, agency.id, externalId)
    return record ? ok({ agency, record }) : fail('not_found')
  }
}
