/*
 * The leads module's provider: state kept across requests (the sid pool, the
 * default period), an inquiry's intake and the inquiry reads, and the module's
 * queues, OpenAPI fragment and metrics. Its handlers on other modules' hooks:
 * a detached operator's inquiries and notification ownership change hands
 * (agencies), and a dead delivery tells the app (core, docs/design.md §14).
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import SidPool from '#leads/services/sid_pool'
import ListInquiries, { DefaultPeriod } from '#leads/services/list_inquiries'
import InquiriesController from '#leads/controllers/inquiries_controller'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import InquiryReader from '#leads/services/inquiry_reader'
import InquiryEvents from '#leads/services/inquiry_events'
import InquiryStore from '#leads/stores/inquiry_store'

export default class LeadsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // The sids handed out ahead of time are the process's.
    lifetimes.singleton(SidPool, () => new SidPool())
    // The default period, computed once a day for every request.
    lifetimes.singleton(DefaultPeriod, () => new DefaultPeriod())
    // An inquiry's intake and the inquiry reads keep nothing between requests (docs/performance.md).
    lifetimes.singleton(InquiriesController)
    lifetimes.singleton(ReceiveInquiry)
    lifetimes.singleton(ListInquiries)
    lifetimes.singleton(InquiryReader)
    lifetimes.singleton(InquiryEvents)
    // Keeps nothing: goes through the process's pool.
    lifetimes.singleton(InquiryStore)
  }

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('leads', {
      jobs: () => import('#leads/jobs'),
      openapi: () => import('#leads/openapi'),
      metrics: () => import('#leads/metrics'),
      deliveryDead: () => import('#leads/services/inquiry_events'),
      operatorHandover: () => import('#leads/services/reassign_operator'),
    })
  }
}
