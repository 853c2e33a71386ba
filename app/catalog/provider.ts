/*
 * The catalogue's provider: the catalogue revision (shared by concurrent
 * requests), the vehicle lookups dealer apps call most, and the module's
 * OpenAPI fragment and reference data.
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import CatalogRevision from '#catalog/services/catalog_revision'
import CatalogStateStore from '#catalog/stores/catalog_state_store'
import BrandsController from '#catalog/controllers/brands_controller'
import ModelsController from '#catalog/controllers/models_controller'
import VersionsController from '#catalog/controllers/versions_controller'
import BrandDirectory from '#catalog/services/brand_directory'
import VersionDirectory from '#catalog/services/version_directory'
import MatchVehicle from '#catalog/services/match_vehicle'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import PlaceResolver from '#catalog/services/place_resolver'
import Matcher from '#catalog/services/matcher'
import VehicleStore from '#catalog/stores/vehicle_store'
import MatchStore from '#catalog/stores/match_store'
import PlaceStore from '#catalog/stores/place_store'

export default class CatalogProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // Requests asking while a revision read is on its way share it
    // (docs/decisions/catalog.md, "Catalogue ETags").
    lifetimes.singleton(CatalogRevision)
    // Keeps nothing: reads through the process's pool.
    lifetimes.singleton(CatalogStateStore)
    // The vehicle lookups dealer apps call most keep nothing between requests (docs/performance.md).
    lifetimes.singleton(BrandsController)
    lifetimes.singleton(ModelsController)
    lifetimes.singleton(VersionsController)
    lifetimes.singleton(BrandDirectory)
    lifetimes.singleton(VersionDirectory)
    lifetimes.singleton(MatchVehicle)
    // What the other modules' busiest actions resolve vehicles and places with: nothing kept.
    lifetimes.singleton(VehicleResolver)
    lifetimes.singleton(PlaceResolver)
    lifetimes.singleton(Matcher)
    lifetimes.singleton(VehicleStore)
    lifetimes.singleton(MatchStore)
    lifetimes.singleton(PlaceStore)
  }

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('catalog', {
      openapi: () => import('#catalog/openapi'),
      referenceData: () => import('#catalog/reference_data'),
    })
  }
}
