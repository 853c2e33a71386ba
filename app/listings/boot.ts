/*
 * The listings module's handlers on agencies' hooks (start/modules.ts `boot`):
 * a detached operator's listings change hands, listings count plan usage, and
 * a suspension or smaller plan suspends listings (docs/design.md §14).
 */
import { onOperatorDetached, onSuspension, providePlanUsage } from '#agencies/hooks'

export function boot() {
  onOperatorDetached('listings', () => import('#listings/services/reassign_operator'))
  onSuspension('listings', () => import('#listings/services/suspend_listings'))
  providePlanUsage(() => import('#listings/services/listing_directory'))
}
