/*
 * The end of a photo's way in: its bytes (or the file holding them) are
 * processed, stored on the photo disk and the pending photo settled — by the
 * `photos.fetch` job after its download, and by `npm start`'s demo data
 * (app/buyers/demo.ts) with photos drawn locally. Settling is idempotent: only
 * a still-pending row is updated, and it bumps the listing's revision.
 */
import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import { processPhoto, type PhotoRejection } from './process_photo.js'
import { photoKeys, storePhoto } from './photo_storage.js'
import { lockListing, refreshPhotoCache } from './photo_set.js'
import ListingEvents from './listing_events.js'

export type PendingPhoto = { id: number; listing_id: number }

/** Processes, stores and settles `photo`; a refused photo comes back with its rejection (unsettled). */
export async function keepPhoto(
  photo: PendingPhoto,
  input: Buffer | string
): Promise<{ ok: true } | { ok: false; details: PhotoRejection }> {
  const processed = await processPhoto(input)
  if (!processed.ok) return { ok: false, details: processed.details! }

  const { image, thumbnail, width, height } = processed.value
  const keys = photoKeys(
    photo.listing_id,
    photo.id,
    createHash('sha256').update(image).digest('hex')
  )
  await storePhoto(keys.image, image)
  await storePhoto(keys.thumbnail, thumbnail)
  await settlePhoto(photo, {
    state: 'ready',
    storage_key: keys.image,
    thumbnail_key: keys.thumbnail,
    width,
    height,
  })
  return { ok: true }
}

/** Applies `values` to `photo` when it is still pending, then refreshes the listing's photo cache. */
export async function settlePhoto(photo: PendingPhoto, values: Record<string, unknown>) {
  await db.transaction(async (trx) => {
    // The listing row first (see photo_set.ts): concurrent settles of its photos queue here.
    await lockListing(trx, photo.listing_id)
    const changed = await trx
      .from('listing_photos')
      .where('id', photo.id)
      .where('state', 'pending')
      .update({ ...values, updated_at: new Date() })
    if (Number(changed) === 0) return
    await refreshPhotoCache(trx, photo.listing_id, { bumpRevision: true })
    await new ListingEvents().photoSettled(trx, photo.id)
  })
}

/** A listing's photos still waiting for their bytes, in order. */
export async function pendingPhotos(listingId: number): Promise<PendingPhoto[]> {
  return db
    .from('listing_photos')
    .where('listing_id', listingId)
    .where('state', 'pending')
    .orderBy('position')
    .select('id', 'listing_id')
}
