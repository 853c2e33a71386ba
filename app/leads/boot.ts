/*
 * The leads module's handler on agencies' hooks (start/modules.ts `boot`): a
 * detached operator's inquiries and notification ownership change hands. Also
 * the module's singletons: state kept across requests lives in them.
 */
import app from '@adonisjs/core/services/app'
import { onOperatorDetached } from '#agencies/hooks'
import SidPool from '#leads/services/sid_pool'
import { DefaultPeriod } from '#leads/services/list_inquiries'

export function boot() {
  onOperatorDetached('leads', () => import('#leads/services/reassign_operator'))
  app.container.singleton(SidPool, () => new SidPool())
  app.container.singleton(DefaultPeriod, () => new DefaultPeriod())
}
