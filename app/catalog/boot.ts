/*
 * The catalogue's process-wide services (start/modules.ts `boot`): one
 * CatalogRevision per process, so that requests asking while a revision read
 * is on its way share it (docs/decisions/catalog.md, Catalog, "Catalogue ETags").
 */
import app from '@adonisjs/core/services/app'
import CatalogRevision from '#catalog/services/catalog_revision'
import CatalogStateStore from '#catalog/stores/catalog_state_store'

export function boot() {
  app.container.singleton(
    CatalogRevision,
    async (resolver) => new CatalogRevision(await resolver.make(CatalogStateStore))
  )
}
