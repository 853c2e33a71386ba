/*
 * The listings module's handlers on agencies' hooks (start/modules.ts `boot`):
 * a detached operator's listings change hands, listings count plan usage, and
 * a suspension or smaller plan suspends listings (docs/design.md §14). Also the
 * one ListingWriters of the process (its queue and handed rows are process-wide),
 * and the listing actions, built once (app/core/build_once.ts).
 */
import app from '@adonisjs/core/services/app'
import { onOperatorDetached, onSuspension, providePlanUsage } from '#agencies/hooks'
import ListingWriters from '#listings/services/listing_writers'
import ListingsController from '#listings/controllers/listings_controller'
import ShowListing from '#listings/services/show_listing'
import ListListings from '#listings/services/list_listings'
import ChangeListing from '#listings/services/change_listing'
import CreateListing from '#listings/services/create_listing'
import { buildOnce } from '#core/build_once'

export function boot() {
  app.container.singleton(ListingWriters, () => new ListingWriters())
  // The listing reads and writes of every dealer app (app/core/build_once.ts).
  buildOnce(ListingsController, ShowListing, ListListings, ChangeListing, CreateListing)
  onOperatorDetached('listings', () => import('#listings/services/reassign_operator'))
  onSuspension('listings', () => import('#listings/services/suspend_listings'))
  providePlanUsage(() => import('#listings/services/listing_directory'))
}
