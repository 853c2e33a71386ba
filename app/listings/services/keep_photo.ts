/*
 * The end of a photo's way in: its bytes (or the file holding them) are
 * processed, stored on the photo disk and the pending photo settled — by the
 * `photos.fetch` job after its download, and by `npm start`'s demo data
 * (app/buyers/demo.ts) with photos drawn locally. Settling is idempotent
 * (SettlePhoto): only a still-pending row is updated, and it bumps the
 * listing's revision.
 */
import { createHash } from 'node:crypto'
import { inject } from '@adonisjs/core'
import { fail, ok, type Fail, type Ok } from '#core/result'
import ListingPhotoStore from '#listings/stores/listing_photo_store'
import { processPhoto, type PhotoRejection } from './process_photo.js'
import { photoKeys, storePhoto } from './photo_storage.js'
import SettlePhoto from './settle_photo.js'

export type PendingPhoto = { id: number; listingId: number }

@inject()
export default class KeepPhoto {
  constructor(
    private photos: ListingPhotoStore,
    private settler: SettlePhoto
  ) {}

  /** Processes, stores and settles `photo`; a refused photo comes back with its rejection, unsettled. */
  async execute(
    photo: PendingPhoto,
    input: Buffer | string
  ): Promise<Ok<true> | Fail<'refused', PhotoRejection>> {
    const processed = await processPhoto(input)
    if (!processed.ok) return fail('refused', { details: processed.details! })

    const { image, thumbnail, width, height } = processed.value
    const keys = photoKeys(
      photo.listingId,
      photo.id,
      createHash('sha256').update(image).digest('hex')
    )
    await storePhoto(keys.image, image)
    await storePhoto(keys.thumbnail, thumbnail)
    await this.settler.execute(photo, {
      state: 'ready',
      storage_key: keys.image,
      thumbnail_key: keys.thumbnail,
      width,
      height,
    })
    return ok(true)
  }

  /** A listing's photos still waiting for their bytes, in order. */
  async pending(listingId: number): Promise<PendingPhoto[]> {
    const rows = await this.photos.pendingOf(listingId)
    return rows.map((row) => ({ id: row.id, listingId: row.listing_id }))
  }
}
