/*
 * The listings module's handlers on agencies' hooks (start/modules.ts `boot`):
 * a detached operator's listings change hands, and listings count plan usage.
 */
import { onOperatorDetached, providePlanUsage } from '#agencies/hooks'

export function boot() {
  onOperatorDetached('listings', () => import('#listings/services/reassign_operator'))
  providePlanUsage(() => import('#listings/services/listing_directory'))
}
