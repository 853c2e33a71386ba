/*
 * The `publicaciones` app events of a listing (docs/design.md §14), written in
 * the caller's transaction: a photo settled (FotoLista / FotoRechazada), and —
 * for a state change the app did not make itself — PublicacionSuspendida /
 * PublicacionActivada / PublicacionArchivada with its Causa.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { path } from '#core/http/links'
import AppEvents from '#apps/services/app_events'
import Listing, { type ListingData, type ListingState } from '#listings/models/listing'
import { listingTitle } from '#listings/transformers/listing_transformer'

export type StateCause =
  'Plan' | 'AgenciaSuspendida' | 'OperadorSuspendido' | 'OtraAplicacion' | 'Administracion'

const STATE_KIND: Record<ListingState, string> = {
  active: 'PublicacionActivada',
  suspended: 'PublicacionSuspendida',
  archived: 'PublicacionArchivada',
}

export default class ListingEvents {
  /** After a photo left `pending` in `trx`: FotoLista or FotoRechazada to the listing's app. */
  async photoSettled(trx: TransactionClientContract, photoId: number) {
    const photo = await trx
      .from('listing_photos')
      .where('id', photoId)
      .select('listing_id', 'position', 'source_url', 'state', 'reason')
      .firstOrFail()
    const listing = await Listing.query({ client: trx }).where('id', photo.listing_id).firstOrFail()
    const ready = photo.state === 'ready'
    await new AppEvents().emit(
      listing.appId,
      'publicaciones',
      {
        Tipo: ready ? 'FotoLista' : 'FotoRechazada',
        ...this.#refs(listing),
        Datos: ready
          ? { Posicion: photo.position + 1, Url: photo.source_url }
          : { Posicion: photo.position + 1, Url: photo.source_url, Motivo: photo.reason },
      },
      trx
    )
  }

  /** A listing's state changed by the service or another actor (never the app's own request). */
  async stateChanged(
    trx: TransactionClientContract,
    listing: ListingData,
    to: ListingState,
    cause: StateCause
  ) {
    await new AppEvents().emit(
      listing.appId,
      'publicaciones',
      { Tipo: STATE_KIND[to], ...this.#refs(listing), Datos: { Causa: cause } },
      trx
    )
  }

  #refs(listing: ListingData) {
    return {
      Agencia: { AdminMail: listing.adminEmail, href: path('agencias', listing.adminEmail) },
      Recurso: {
        href: path('publicaciones', listing.adminEmail, listing.externalId),
        title: listingTitle(listing),
      },
    }
  }
}
