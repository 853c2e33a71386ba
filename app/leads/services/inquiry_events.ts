/*
 * The `consultas` and `entregas` app events (docs/design.md §14), written in
 * the caller's transaction: ConsultaRecibida to every app that sees the
 * inquiry (docs/design.md §3: the publishing app, or the apps receiving the
 * agency's other leads), EntregaFallida to the app whose lead delivery went dead.
 */
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import type { Tx } from '#core/database/unit_of_work'
import type { Delivery } from '#core/outbound/deliveries'
import AppEvents from '#apps/services/app_events'
import AgencyDirectory from '#agencies/services/agency_directory'
import type { ReceivedInquiry } from '#leads/models/inquiry'
import InquiryStore from '#leads/stores/inquiry_store'
import { deliveryDeadEvent, inquiryReceivedEvent } from '#leads/transformers/event_transformer'

@inject()
export default class InquiryEvents {
  constructor(
    private appEvents: AppEvents,
    private agencies: AgencyDirectory,
    private inquiries: InquiryStore
  ) {}

  async received(inquiry: ReceivedInquiry, audience: number[], adminMail: string, trx: Tx) {
    await this.appEvents.emitEach(
      audience,
      'consultas',
      inquiryReceivedEvent(inquiry, adminMail),
      trx
    )
  }

  /** A delivery of an inquiry went dead: its app hears of it (the `deliveryDead` hook, app/leads/provider.ts). */
  async deliveryDead(delivery: Delivery, trx: Tx) {
    if (delivery.ownerType !== 'inquiry') return
    const inquiry = await this.inquiries.find(delivery.ownerId, trx)
    if (!inquiry) return
    const admin = await this.agencies.admin(inquiry.agencyId, trx)
    if (!admin) return
    await this.appEvents.emit(
      delivery.appId,
      'entregas',
      deliveryDeadEvent(inquiry, admin.email, delivery),
      trx
    )
  }
}

/** The leads module's `deliveryDead` contribution (app/leads/provider.ts). */
export async function onDeliveryDead(delivery: Delivery, trx: Tx) {
  const events = await app.container.make(InquiryEvents)
  return events.deliveryDead(delivery, trx)
}
