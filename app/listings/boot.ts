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
import { buildOnce } from '#core/build_once'

export async function boot() {
  app.container.singleton(ListingWriters, () => new ListingWriters())
  // The listing reads and writes of every dealer app (app/core/build_once.ts).
  await buildOnce(
    () => import('#listings/controllers/listings_controller'),
    () => import('#listings/services/show_listing'),
    () => import('#listings/services/list_listings'),
    () => import('#listings/services/change_listing'),
    () => import('#listings/services/create_listing')
  )
  onOperatorDetached('listings', () => import('#listings/services/reassign_operator'))
  onSuspension('listings', () => import('#listings/services/suspend_listings'))
  providePlanUsage(() => import('#listings/services/listing_directory'))
}
