/*
 * The listings module's provider: the one ListingWriters of the process (its
 * queue and handed rows are process-wide), the listing reads and writes of
 * every dealer app, and the module's queues, OpenAPI fragment and metrics. Its
 * handlers on agencies' hooks: a detached operator's listings change hands,
 * listings count plan usage, and a suspension or smaller plan suspends
 * listings (docs/design.md §14).
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import ListingWriters from '#listings/services/listing_writers'
import ListingsController from '#listings/controllers/listings_controller'
import ShowListing from '#listings/services/show_listing'
import ListListings from '#listings/services/list_listings'
import ChangeListing from '#listings/services/change_listing'
import CreateListing from '#listings/services/create_listing'
import ApplyEdit from '#listings/services/apply_edit'
import PhotoSet from '#listings/services/photo_set'
import ListingEvents from '#listings/services/listing_events'
import ListingDirectory from '#listings/services/listing_directory'
import ListingStore from '#listings/stores/listing_store'
import ListingPhotoStore from '#listings/stores/listing_photo_store'

export default class ListingsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // The writes queued per listing and the rows handed between them are the process's.
    lifetimes.singleton(ListingWriters, () => new ListingWriters())
    // The listing reads and writes of every dealer app keep nothing between
    // requests: built once with their graph (docs/performance.md).
    lifetimes.singleton(ListingsController)
    lifetimes.singleton(ShowListing)
    lifetimes.singleton(ListListings)
    lifetimes.singleton(ChangeListing)
    lifetimes.singleton(CreateListing)
    lifetimes.singleton(ApplyEdit)
    lifetimes.singleton(PhotoSet)
    lifetimes.singleton(ListingEvents)
    // What leads asks of listings on every intake.
    lifetimes.singleton(ListingDirectory)
    // Stores keep nothing: they go through the process's pool.
    lifetimes.singleton(ListingStore)
    lifetimes.singleton(ListingPhotoStore)
  }

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('listings', {
      jobs: () => import('#listings/jobs'),
      openapi: () => import('#listings/openapi'),
      metrics: () => import('#listings/metrics'),
      operatorHandover: () => import('#listings/services/reassign_operator'),
      suspensionEffects: () => import('#listings/services/suspend_listings'),
      planUsage: () => import('#listings/services/listing_directory'),
    })
  }
}
