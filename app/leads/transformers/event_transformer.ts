/*
 * Code → wire for the leads module's app events (docs/design.md §14):
 * `consultas` (ConsultaRecibida) and `entregas` (EntregaFallida).
 */
import { path } from '#core/http/links'
import type { Delivery } from '#core/outbound/deliveries'
import type { ReceivedInquiry, InquiryFields } from '#leads/models/inquiry'
import { CHANNELS, type Channel } from '#leads/services/notification_fanout'
import { inquiryRef } from './inquiry_transformer.js'

const agencia = (adminMail: string) => ({ AdminMail: adminMail, href: path('agencias', adminMail) })

export function inquiryReceivedEvent(inquiry: ReceivedInquiry, adminMail: string) {
  return {
    Tipo: 'ConsultaRecibida',
    Momento: inquiry.receivedAt.toISO(),
    Agencia: agencia(adminMail),
    Recurso: inquiryRef(inquiry, adminMail),
    Datos: {},
  }
}

export function deliveryDeadEvent(inquiry: InquiryFields, adminMail: string, delivery: Delivery) {
  const ref = inquiryRef(inquiry, adminMail)
  return {
    Tipo: 'EntregaFallida',
    Agencia: agencia(adminMail),
    Recurso: { href: `${ref.href}/entregas`, title: ref.title },
    Datos: {
      Canal: CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel,
      UltimoError: delivery.lastError,
    },
  }
}
