import { inject } from '@adonisjs/core'
import CatalogStateStore from '#catalog/stores/catalog_state_store'

/**
 * The catalogue's revision, bumped by every import; catalogue ETags derive from it.
 * Requests that ask while a read is on its way share that read (one statement
 * for a burst of requests under load): it was sent before they asked, so it is
 * still read before any data they read next — an ETag never claims data newer
 * than the body (docs/decisions/catalog.md, ETags).
 */
@inject()
export default class CatalogRevision {
  #reading: Promise<string> | null = null

  constructor(private store: CatalogStateStore) {}

  current(): Promise<string> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = null
    })
    return this.#reading
  }

  #read(): Promise<string> {
    return this.store.revision()
  }
}
