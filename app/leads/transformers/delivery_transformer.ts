/*
 * Code → wire for the notification log of an inquiry
 * (GET /v3/consultas/{adminmail}/{sid}/entregas): every delivery and attempt.
 */
import type { Delivery } from '#core/outbound/deliveries'
import { link } from '#core/http/links'
import { CHANNELS, type Channel } from '#leads/services/notification_fanout'
import { inquiryPath, moment } from './inquiry_transformer.js'

const STATUS: Record<string, string> = {
  pending: 'Pendiente',
  delivered: 'Entregada',
  failed: 'Reintentando',
  dead: 'Fallida',
  disabled: 'Desactivada',
}

export const DeliveryTransformer = {
  full(delivery: Delivery) {
    return {
      Canal: CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel,
      Destino: delivery.target,
      Estado: STATUS[delivery.status] ?? delivery.status,
      WebhookId: delivery.messageId,
      Creada: moment(delivery.createdAt),
      Entregada: delivery.deliveredAt ? moment(delivery.deliveredAt) : null,
      ProximoIntento:
        delivery.nextAttemptAt && delivery.status === 'failed'
          ? moment(delivery.nextAttemptAt)
          : null,
      UltimoError: delivery.lastError,
      Intentos: delivery.attempts.map((attempt) => ({
        Numero: attempt.number,
        Momento: moment(attempt.attemptedAt),
        CodigoRespuesta: attempt.statusCode,
        DuracionMs: attempt.durationMs,
        Error: attempt.error,
      })),
    }
  },

  ref(delivery: Delivery) {
    const channel = CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel
    return {
      title: `${channel} → ${delivery.target}: ${STATUS[delivery.status] ?? delivery.status}`,
    }
  },

  list(deliveries: Delivery[], adminMail: string, sid: string, representation: 'full' | 'ref') {
    const self = inquiryPath(adminMail, sid)
    return {
      _links: { self: link(`${self}/entregas`), consulta: link(self) },
      _entries: deliveries.map((delivery) =>
        representation === 'full'
          ? DeliveryTransformer.full(delivery)
          : { href: `${self}/entregas`, ...DeliveryTransformer.ref(delivery) }
      ),
    }
  },
}
