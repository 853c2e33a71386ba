/*
 * Installs a listing's photo list inside the listing write's transaction:
 * one row per URL, in order, and one `photos.fetch` job per photo that still
 * has to be downloaded (enqueued in the same transaction). A URL the listing
 * already had keeps its processed result instead of being fetched again.
 * The listing's `photo_keys` / `photo_count` follow in the same transaction.
 *
 * Every writer of a listing's photos (this install and the `photos.fetch`
 * settle, services/settle_photo.ts) first locks the listing row, then
 * recomputes the cache in a later statement (docs/design.md §13): under read
 * committed each statement sees what was committed when it started, so a
 * recompute that began before the lock was granted could miss a photo another
 * transaction just made ready. Listing row before photo rows, always: the
 * same order in every writer keeps them from deadlocking.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import JobRunner from '#core/jobs/runner'
import { PHOTOS_FETCH } from '#listings/queues'
import ListingStore from '#listings/stores/listing_store'
import ListingPhotoStore, { type NewPhoto } from '#listings/stores/listing_photo_store'

@inject()
export default class PhotoSet {
  constructor(
    private listings: ListingStore,
    private photos: ListingPhotoStore,
    private runner: JobRunner
  ) {}

  /** The listing's photo URLs as they were sent (the install's list), in order. */
  sources(listingId: number, tx?: Tx): Promise<string[]> {
    return this.photos.sourcesOf(listingId, tx)
  }

  async install(listing: { id: number; appId: number }, urls: string[], tx: Tx) {
    await this.listings.lock(listing.id, tx)
    const previous = await this.photos.settledOf(listing.id, tx)
    const done = new Map(previous.map((row) => [row.source_url, row]))
    await this.photos.deleteOf(listing.id, tx)

    const rows = urls.map((url, position): NewPhoto => {
      const base = { app_id: listing.appId, listing_id: listing.id, position, source_url: url }
      const known = done.get(url)
      return known ? { ...known, ...base } : { ...base, state: 'pending' }
    })
    const inserted = await this.photos.insert(rows, tx)
    await this.listings.refreshPhotoCache(listing.id, {}, tx)
    for (const photo of inserted) {
      if (photo.state === 'pending') {
        await this.runner.send(PHOTOS_FETCH, { photoId: photo.id }, { trx: tx })
      }
    }
  }
}
