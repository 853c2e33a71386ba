/*
 * The listings module's handlers on agencies' hooks (start/modules.ts `boot`):
 * a detached operator's listings change hands, listings count plan usage, and
 * a suspension or smaller plan suspends listings (docs/design.md §14). Also the
 * one ListingWriters of the process (its queue and handed rows are process-wide).
 */
import app from '@adonisjs/core/services/app'
import { onOperatorDetached, onSuspension, providePlanUsage } from '#agencies/hooks'
import ListingWriters from '#listings/services/listing_writers'

export function boot() {
  app.container.singleton(ListingWriters, () => new ListingWriters())
  onOperatorDetached('listings', () => import('#listings/services/reassign_operator'))
  onSuspension('listings', () => import('#listings/services/suspend_listings'))
  providePlanUsage(() => import('#listings/services/listing_directory'))
}
