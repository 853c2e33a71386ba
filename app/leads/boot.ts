/*
 * The leads module's handler on agencies' hooks (start/modules.ts `boot`): a
 * detached operator's inquiries and notification ownership change hands. Also
 * the module's singletons: state kept across requests lives in them; the
 * inquiry actions are built once (app/core/build_once.ts).
 */
import app from '@adonisjs/core/services/app'
import { onOperatorDetached } from '#agencies/hooks'
import SidPool from '#leads/services/sid_pool'
import { DefaultPeriod } from '#leads/services/list_inquiries'
import { buildOnce } from '#core/build_once'

export async function boot() {
  onOperatorDetached('leads', () => import('#leads/services/reassign_operator'))
  app.container.singleton(SidPool, () => new SidPool())
  app.container.singleton(DefaultPeriod, () => new DefaultPeriod())
  // An inquiry's intake and the inquiry reads (app/core/build_once.ts).
  await buildOnce(
    () => import('#leads/controllers/inquiries_controller'),
    () => import('#leads/services/receive_inquiry'),
    () => import('#leads/services/list_inquiries'),
    () => import('#leads/services/inquiry_reader')
  )
}
