/*
 * The leads module's handler on agencies' hooks (start/modules.ts `boot`): a
 * detached operator's inquiries and notification ownership change hands.
 */
import { onOperatorDetached } from '#agencies/hooks'

export function boot() {
  onOperatorDetached('leads', () => import('#leads/services/reassign_operator'))
}
