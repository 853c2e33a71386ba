/*
 * The `consultas` and `entregas` app events (docs/design.md §14), written in
 * the caller's transaction: ConsultaRecibida to every app that sees the
 * inquiry (docs/design.md §3: the publishing app, or the apps receiving the
 * agency's other leads), EntregaFallida to the app whose lead delivery went dead.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { path } from '#core/http/links'
import type { Delivery } from '#core/outbound/deliveries'
import AppEvents from '#apps/services/app_events'
import AgencyDirectory from '#agencies/services/agency_directory'
import Inquiry, { type ReceivedInquiry } from '#leads/models/inquiry'
import { inquiryRef } from '#leads/transformers/inquiry_transformer'
import { CHANNELS, type Channel } from './notification_fanout.js'

const agencia = (adminMail: string) => ({ AdminMail: adminMail, href: path('agencias', adminMail) })

export default class InquiryEvents {
  async received(
    inquiry: ReceivedInquiry,
    audience: number[],
    adminMail: string,
    trx: TransactionClientContract
  ) {
    await new AppEvents().emitEach(
      audience,
      'consultas',
      {
        Tipo: 'ConsultaRecibida',
        Momento: inquiry.receivedAt.toISO(),
        Agencia: agencia(adminMail),
        Recurso: inquiryRef(inquiry, adminMail),
        Datos: {},
      },
      trx
    )
  }

  /** A delivery of an inquiry went dead: its app hears of it (the `deliveryDead` hook of start/modules.ts). */
  async deliveryDead(delivery: Delivery, trx: TransactionClientContract) {
    if (delivery.ownerType !== 'inquiry') return
    const inquiry = await Inquiry.query({ client: trx }).where('id', delivery.ownerId).first()
    if (!inquiry) return
    const admin = await new AgencyDirectory().admin(inquiry.agencyId, trx)
    if (!admin) return
    const ref = inquiryRef(inquiry, admin.email)
    await new AppEvents().emit(
      delivery.appId,
      'entregas',
      {
        Tipo: 'EntregaFallida',
        Agencia: agencia(admin.email),
        Recurso: { href: `${ref.href}/entregas`, title: ref.title },
        Datos: {
          Canal: CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel,
          UltimoError: delivery.lastError,
        },
      },
      trx
    )
  }
}

/** The leads module's `deliveryDead` contribution (start/modules.ts). */
export const onDeliveryDead = (delivery: Delivery, trx: TransactionClientContract) =>
  new InquiryEvents().deliveryDead(delivery, trx)
