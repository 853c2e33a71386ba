/*
 * A photo leaves `pending` (the `photos.fetch` job): its outcome, the
 * listing's photo cache and revision, and its app's FotoLista/FotoRechazada
 * event, in one transaction. Idempotent: a photo no longer pending (replaced,
 * or settled by an earlier run of the job) is left alone.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import ListingStore from '#listings/stores/listing_store'
import ListingPhotoStore, { type PhotoOutcome } from '#listings/stores/listing_photo_store'
import ListingEvents from './listing_events.js'

@inject()
export default class SettlePhoto {
  constructor(
    private unitOfWork: UnitOfWork,
    private listings: ListingStore,
    private photos: ListingPhotoStore,
    private events: ListingEvents
  ) {}

  /** Answers whether this call settled the photo. */
  execute(photo: { id: number; listingId: number }, outcome: PhotoOutcome): Promise<boolean> {
    return this.unitOfWork.run(async (tx) => {
      // The listing row first (services/photo_set.ts): concurrent settles of its photos queue here.
      await this.listings.lock(photo.listingId, tx)
      if (!(await this.photos.settle(photo.id, outcome, tx))) return false
      await this.listings.refreshPhotoCache(photo.listingId, { bumpRevision: true }, tx)
      await this.events.photoSettled(photo.id, tx)
      return true
    })
  }
}
