import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import ListingReader, { type ListingRecord } from './listing_reader.js'

/**
 * One listing of the app: a single indexed query. An agency not linked to the
 * app has no listing of the app, so it answers `not_found` like a missing one.
 */
@inject()
export default class ShowListing {
  constructor(private reader: ListingReader) {}

  async execute(
    caller: Caller,
    adminMail: string,
    externalId: string
  ): Promise<Result<{ agency: { adminMail: string }; record: ListingRecord }, 'not_found'>> {
    const record = await this.reader.findByAdminMail(caller, adminMail, externalId)
    return record
      ? ok({ agency: { adminMail: record.listing.adminEmail }, record })
      : fail('not_found')
  }
}
