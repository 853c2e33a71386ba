import { inject } from '@adonisjs/core'
import { fail, ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import ListingStore from '#listings/stores/listing_store'
import ListingPhotoStore from '#listings/stores/listing_photo_store'
import { toRecord } from './listing_record.js'

/** A listing's photos in order, with their processing state. */
@inject()
export default class ListPhotos {
  constructor(
    private listings: ListingStore,
    private photos: ListingPhotoStore
  ) {}

  async execute(caller: Caller, adminMail: string, externalId: string) {
    const listing = await this.listings.findByAdminMail(caller.id, adminMail, externalId)
    if (!listing) return fail('not_found')
    const photos = await this.photos.ofListing(caller.id, listing.id)
    return ok({ agency: { adminMail: listing.adminEmail }, record: toRecord(listing), photos })
  }
}
