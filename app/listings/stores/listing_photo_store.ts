/*
 * The `listing_photos` table. Plain CRUD and set-based writes with the query
 * builder; no written-out SQL (no photo statement is on a hot path of the bench).
 * Methods take the caller's transaction last; without one they run on the pool.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'
import ListingPhoto, { type PhotoState } from '#listings/models/listing_photo'

/** A photo row as stored (snake_case). */
export type ListingPhotoRow = {
  id: number
  app_id: number
  listing_id: number
  position: number
  source_url: string
  state: PhotoState
  reason: string | null
  storage_key: string | null
  thumbnail_key: string | null
  width: number | null
  height: number | null
}

/** What a processed photo keeps when its URL stays on the listing. */
export type SettledPhoto = Pick<
  ListingPhotoRow,
  'source_url' | 'state' | 'reason' | 'storage_key' | 'thumbnail_key' | 'width' | 'height'
>

/** A photo row to insert: its place in the list, and either `pending` or a kept result. */
export type NewPhoto = Pick<ListingPhotoRow, 'app_id' | 'listing_id' | 'position' | 'source_url'> &
  (Omit<SettledPhoto, 'source_url'> | { state: 'pending' })

/** How a photo left `pending`: rejected with its reason, or ready with its stored files. */
export type PhotoOutcome =
  | { state: 'rejected'; reason: string }
  | { state: 'ready'; storage_key: string; thumbnail_key: string; width: number; height: number }

export default class ListingPhotoStore {
  async find(photoId: number, tx?: Tx): Promise<ListingPhotoRow | null> {
    return (
      (await (tx ?? db.connection()).from('listing_photos').where('id', photoId).first()) ?? null
    )
  }

  /** The app's photos of a listing, in order. */
  async ofListing(appId: number, listingId: number): Promise<ListingPhoto[]> {
    return ListingPhoto.forApp({ id: appId }).where('listing_id', listingId).orderBy('position')
  }

  /** The listing's photos still waiting for their bytes, in order. */
  async pendingOf(listingId: number): Promise<{ id: number; listing_id: number }[]> {
    return db
      .from('listing_photos')
      .where('listing_id', listingId)
      .where('state', 'pending')
      .orderBy('position')
      .select('id', 'listing_id')
  }

  /** The listing's photo URLs as they were sent, in order. */
  async sourcesOf(listingId: number, tx?: Tx): Promise<string[]> {
    const rows: { source_url: string }[] = await (tx ?? db.connection())
      .from('listing_photos')
      .where('listing_id', listingId)
      .orderBy('position')
      .select('source_url')
    return rows.map((row) => row.source_url)
  }

  /** The listing's photos that are no longer pending. */
  async settledOf(listingId: number, tx: Tx): Promise<SettledPhoto[]> {
    return tx
      .from('listing_photos')
      .where('listing_id', listingId)
      .whereNot('state', 'pending')
      .select('source_url', 'state', 'reason', 'storage_key', 'thumbnail_key', 'width', 'height')
  }

  async deleteOf(listingId: number, tx: Tx) {
    await tx.from('listing_photos').where('listing_id', listingId).delete()
  }

  /** Inserts the rows; answers each one's id and state, in order. */
  async insert(rows: NewPhoto[], tx: Tx): Promise<{ id: number; state: PhotoState }[]> {
    if (rows.length === 0) return []
    return tx.table('listing_photos').insert(rows).returning(['id', 'state'])
  }

  /** Settles a still-pending photo; false when it was not pending (gone or settled already). */
  async settle(photoId: number, outcome: PhotoOutcome, tx: Tx): Promise<boolean> {
    const changed = await tx
      .from('listing_photos')
      .where('id', photoId)
      .where('state', 'pending')
      .update({ ...outcome, updated_at: new Date() })
    return Number(changed) > 0
  }

  /** Photos pending, and settled in the last 24 hours, by state (metrics). */
  async recentStates(): Promise<{ state: PhotoState; n: number }[]> {
    const rows = await db
      .from('listing_photos')
      .where((query) =>
        query.where('state', 'pending').orWhereRaw(`updated_at > now() - interval '24 hours'`)
      )
      .groupBy('state')
      .select('state')
      .count('* as n')
    return rows.map((row) => ({ state: row.state as PhotoState, n: Number(row.n) }))
  }
}
