import { poolQuery } from '#core/database/pool_query'

/** The catalogue's revision, bumped by every import; catalogue ETags derive from it. */
export default class CatalogRevision {
  async current(): Promise<string> {
    const [row] = await poolQuery<{ revision: unknown }>(
      'select revision from catalog_state where id = 1'
    )
    return String(row?.revision ?? 0)
  }
}
