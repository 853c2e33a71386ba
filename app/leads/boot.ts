/*
 * The leads module's handler on agencies' hooks (start/modules.ts `boot`): a
 * detached operator's inquiries and notification ownership change hands. Also
 * the module's singletons: state kept across requests lives in them; the
 * inquiry actions are built once (app/core/build_once.ts).
 */
import app from '@adonisjs/core/services/app'
import { onOperatorDetached } from '#agencies/hooks'
import SidPool from '#leads/services/sid_pool'
import ListInquiries, { DefaultPeriod } from '#leads/services/list_inquiries'
import InquiriesController from '#leads/controllers/inquiries_controller'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import InquiryReader from '#leads/services/inquiry_reader'
import { buildOnce } from '#core/build_once'

export function boot() {
  onOperatorDetached('leads', () => import('#leads/services/reassign_operator'))
  app.container.singleton(SidPool, () => new SidPool())
  app.container.singleton(DefaultPeriod, () => new DefaultPeriod())
  // An inquiry's intake and the inquiry reads (app/core/build_once.ts).
  buildOnce(InquiriesController, ReceiveInquiry, ListInquiries, InquiryReader)
}
