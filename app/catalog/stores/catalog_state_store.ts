/*
 * `catalog_state`: the catalogue's revision, bumped by every import. Read on
 * every catalogue request (its ETags derive from it): a written-out statement
 * through `poolQuery` (docs/decisions/performance.md, Performance, "Catalogue reads
 * without the query builder").
 * No `tx` argument: catalogue reads never run inside a write transaction (they
 * come before it: docs/decisions/core.md, Database & deploys).
 */
import { poolQuery } from '#core/database/pool_query'

export default class CatalogStateStore {
  async revision(): Promise<string> {
    const [row] = await poolQuery<{ revision: unknown }>(
      'select revision from catalog_state where id = 1'
    )
    return String(row?.revision ?? 0)
  }
}
