import { inject } from '@adonisjs/core'
import { fail, ok } from '#core/result'
import type { Caller } from '#core/auth/app_scoped'
import AgencyDirectory from '#agencies/services/agency_directory'
import ListingPhoto from '#listings/models/listing_photo'
import ListingReader from './listing_reader.js'

/** A listing's photos in order, with their processing state. */
@inject()
export default class ListPhotos {
  constructor(
    private directory: AgencyDirectory,
    private reader: ListingReader
  ) {}

  async execute(caller: Caller, adminMail: string, externalId: string) {
    const agency = await this.directory.forApp(caller.id, adminMail)
    if (!agency) return fail('no_agency')
    const record = await this.reader.find(caller, agency.id, externalId)
    if (!record) return fail('not_found')
    const photos = await ListingPhoto.forApp(caller).where('listing_id', record.listing.id).orderBy('position')
    return ok({ agency, record, photos })
  }
}
