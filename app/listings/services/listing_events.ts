/*
 * The `publicaciones` app events of a listing (docs/design.md §14), written in
 * the caller's transaction: a photo settled (FotoLista / FotoRechazada), and —
 * for a state change the app did not make itself — PublicacionSuspendida /
 * PublicacionActivada / PublicacionArchivada with its Causa.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import AppEvents from '#apps/services/app_events'
import type { ListingData, ListingState } from '#listings/models/listing'
import ListingStore from '#listings/stores/listing_store'
import ListingPhotoStore from '#listings/stores/listing_photo_store'
import { photoSettledEvent, stateChangedEvent } from '#listings/transformers/listing_transformer'

/** Why a listing's state changed without its app asking (its wire Causa: the transformer). */
export type StateCause =
  'plan' | 'agency_suspended' | 'operator_suspended' | 'other_app' | 'administration'

@inject()
export default class ListingEvents {
  constructor(
    private appEvents: AppEvents,
    private listings: ListingStore,
    private photos: ListingPhotoStore
  ) {}

  /** After a photo left `pending` in `tx`: FotoLista or FotoRechazada to the listing's app. */
  async photoSettled(photoId: number, tx: Tx) {
    const photo = await this.photos.find(photoId, tx)
    const listing = photo && (await this.listings.findById(photo.listing_id, tx))
    if (!photo || !listing) throw new Error(`Photo ${photoId} settled without its row or listing`)
    await this.appEvents.emit(listing.appId, 'publicaciones', photoSettledEvent(listing, photo), tx)
  }

  /** A listing's state changed by the service or another actor (never the app's own request). */
  async stateChanged(listing: ListingData, to: ListingState, cause: StateCause, tx: Tx) {
    await this.appEvents.emit(
      listing.appId,
      'publicaciones',
      stateChangedEvent(listing, to, cause),
      tx
    )
  }
}
