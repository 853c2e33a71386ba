import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import ListingStore from '#listings/stores/listing_store'
import { toRecord, type ListingRecord } from './listing_record.js'

/**
 * One listing of the app: a single indexed query. An agency not linked to the
 * app has no listing of the app, so it answers `not_found` like a missing one.
 */
@inject()
export default class ShowListing {
  constructor(private listings: ListingStore) {}

  async execute(
    caller: Caller,
    adminMail: string,
    externalId: string
  ): Promise<Result<{ agency: { adminMail: string }; record: ListingRecord }, 'not_found'>> {
    const listing = await this.listings.findByAdminMail(caller.id, adminMail, externalId)
    return listing
      ? ok({ agency: { adminMail: listing.adminEmail }, record: toRecord(listing) })
      : fail('not_found')
  }
}
