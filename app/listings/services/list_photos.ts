import { inject } from '@adonisjs/core'
import { fail, ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import ListingPhoto from '#listings/models/listing_photo'
import ListingReader from './listing_reader.js'

/** A listing's photos in order, with their processing state. */
@inject()
export default class ListPhotos {
  constructor(private reader: ListingReader) {}

  async execute(caller: Caller, adminMail: string, externalId: string) {
    const record = await this.reader.findByAdminMail(caller, adminMail, externalId)
    if (!record) return fail('not_found')
    const photos = await ListingPhoto.forApp(caller)
      .where('listing_id', record.listing.id)
      .orderBy('position')
    return ok({ agency: { adminMail: record.listing.adminEmail }, record, photos })
  }
}
