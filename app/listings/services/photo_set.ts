/*
 * Installs a listing's photo list inside the listing write's transaction:
 * one row per URL, in order, and one `photos.fetch` job per photo that still
 * has to be downloaded (enqueued in the same transaction). A URL the listing
 * already had keeps its processed result instead of being fetched again.
 * The listing's `photo_keys` / `photo_count` follow in the same transaction.
 *
 * Every writer of a listing's photos (this install and the `photos.fetch`
 * settle) first locks the listing row, then recomputes the cache in a later
 * statement (docs/design.md §13): under read committed each statement sees what
 * was committed when it started, so a recompute that began before the lock
 * was granted could miss a photo another transaction just made ready.
 * Listing row before photo rows, always: the same order in every writer
 * keeps them from deadlocking.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import runner from '#core/jobs/main'
import { PHOTOS_FETCH } from '#listings/jobs'

type PhotoRow = {
  source_url: string
  state: string
  reason: string | null
  storage_key: string | null
  thumbnail_key: string | null
  width: number | null
  height: number | null
}

export async function installPhotos(
  trx: TransactionClientContract,
  listing: { id: number; appId: number },
  urls: string[]
) {
  await lockListing(trx, listing.id)
  const previous: PhotoRow[] = await trx
    .from('listing_photos')
    .where('listing_id', listing.id)
    .whereNot('state', 'pending')
    .select('source_url', 'state', 'reason', 'storage_key', 'thumbnail_key', 'width', 'height')
  const done = new Map(previous.map((row) => [row.source_url, row]))
  await trx.from('listing_photos').where('listing_id', listing.id).delete()

  const rows = urls.map((url, position) => {
    const known = done.get(url)
    return {
      app_id: listing.appId,
      listing_id: listing.id,
      position,
      source_url: url,
      ...(known
        ? {
            state: known.state,
            reason: known.reason,
            storage_key: known.storage_key,
            thumbnail_key: known.thumbnail_key,
            width: known.width,
            height: known.height,
          }
        : { state: 'pending' }),
    }
  })
  const inserted: { id: number; state: string }[] = rows.length
    ? await trx.table('listing_photos').insert(rows).returning(['id', 'state'])
    : []
  await refreshPhotoCache(trx, listing.id)
  for (const photo of inserted) {
    if (photo.state === 'pending') await runner.send(PHOTOS_FETCH, { photoId: photo.id }, { trx })
  }
}

/** Locks the listing row for the rest of `trx` (a no-op wait when `trx` already holds it). */
export async function lockListing(trx: TransactionClientContract, listingId: number) {
  await trx.from('listings').where('id', listingId).select('id').forUpdate()
}

/**
 * Recomputes `photo_keys` (ready photos, in order) and `photo_count` (every
 * photo) from the photo rows; `bumpRevision` when a photo settled. Call with
 * the listing locked by `trx` (`lockListing`), never in the locking statement.
 */
export async function refreshPhotoCache(
  trx: TransactionClientContract,
  listingId: number,
  options: { bumpRevision?: boolean } = {}
) {
  await trx
    .from('listings')
    .where('id', listingId)
    .update({
      photo_keys:
        trx.raw(`(select coalesce(json_agg(p.storage_key order by p.position) filter (where p.state = 'ready'), '[]')
        from listing_photos p where p.listing_id = listings.id)`),
      photo_count: trx.raw(
        '(select count(*) from listing_photos p where p.listing_id = listings.id)'
      ),
      ...(options.bumpRevision
        ? { revision: trx.raw('revision + 1'), updated_at: new Date() }
        : {}),
    })
}
