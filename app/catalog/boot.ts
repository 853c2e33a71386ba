/*
 * The catalogue's process-wide services (start/modules.ts `boot`): one
 * CatalogRevision per process, so that requests asking while a revision read
 * is on its way share it (docs/decisions/catalog.md, Catalog, "Catalogue ETags").
 * The vehicle lookups are built once (app/core/build_once.ts).
 */
import app from '@adonisjs/core/services/app'
import CatalogRevision from '#catalog/services/catalog_revision'
import CatalogStateStore from '#catalog/stores/catalog_state_store'
import { buildOnce } from '#core/build_once'

export async function boot() {
  app.container.singleton(
    CatalogRevision,
    async (resolver) => new CatalogRevision(await resolver.make(CatalogStateStore))
  )
  // The vehicle lookups dealer apps call most (app/core/build_once.ts).
  await buildOnce(
    () => import('#catalog/controllers/brands_controller'),
    () => import('#catalog/controllers/models_controller'),
    () => import('#catalog/controllers/versions_controller'),
    () => import('#catalog/services/brand_directory'),
    () => import('#catalog/services/version_directory'),
    () => import('#catalog/services/match_vehicle')
  )
}
