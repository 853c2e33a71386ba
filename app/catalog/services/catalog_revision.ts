import { poolQuery } from '#core/database/pool_query'

/**
 * The catalogue's revision, bumped by every import; catalogue ETags derive from it.
 * Requests that ask while a read is on its way share that read (one statement
 * for a burst of requests under load): it was sent before they asked, so it is
 * still read before any data they read next — an ETag never claims data newer
 * than the body (docs/decisions/catalog.md, ETags).
 */
export default class CatalogRevision {
  #reading: Promise<string> | null = null

  current(): Promise<string> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = null
    })
    return this.#reading
  }

  async #read(): Promise<string> {
    const [row] = await poolQuery<{ revision: unknown }>(
      'select revision from catalog_state where id = 1'
    )
    return String(row?.revision ?? 0)
  }
}
