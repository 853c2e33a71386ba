/*
 * Installs a listing's photo list inside the listing write's transaction:
 * one row per URL, in order, and one `photos.fetch` job per photo that still
 * has to be downloaded (enqueued in the same transaction). A URL the listing
 * already had keeps its processed result instead of being fetched again.
 * The listing's `photo_keys` / `photo_count` follow in the same transaction.
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
  const ready = rows.flatMap((row) => (row.state === 'ready' && 'storage_key' in row ? [row.storage_key] : []))
  await trx
    .from('listings')
    .where('id', listing.id)
    .update({ photo_keys: JSON.stringify(ready), photo_count: rows.length })
  for (const photo of inserted) {
    if (photo.state === 'pending') await runner.send(PHOTOS_FETCH, { photoId: photo.id }, { trx })
  }
}

/** The listing's ready photo keys, recomputed from its photos (the job's half of the cache). */
export const READY_KEYS_SQL = `(select coalesce(json_agg(p.storage_key order by p.position), '[]')
  from listing_photos p where p.listing_id = listings.id and p.state = 'ready')`
