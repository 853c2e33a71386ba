/*
 * Code → wire for the notification log of an inquiry
 * (GET /v3/consultas/{adminmail}/{sid}/entregas): every delivery and attempt.
 */
import type { Delivery } from '#core/outbound/deliveries'
import { link } from '#core/http/links'
import { CHANNELS, type Channel } from '#leads/services/notification_fanout'
import { inquiryPath, moment } from './inquiry_transformer.js'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema, ReferenceSchema } from '#core/openapi/wire'

const CHANNEL_WIRES = Object.values(CHANNELS).map((channel) => channel.wire)

export const EntregaSchema = named(
  'Entrega',
  object({
    Canal: { type: 'string', enum: CHANNEL_WIRES },
    Destino: { type: 'string' },
    Estado: {
      type: 'string',
      enum: ['Pendiente', 'Reintentando', 'Entregada', 'Fallida', 'Desactivada'],
    },
    WebhookId: { type: 'string' },
    Creada: { type: 'string', format: 'date-time' },
    Entregada: { type: ['string', 'null'], format: 'date-time' },
    ProximoIntento: { type: ['string', 'null'], format: 'date-time' },
    UltimoError: { type: ['string', 'null'] },
    Intentos: {
      type: 'array',
      items: object({
        Numero: { type: 'integer' },
        Momento: { type: 'string', format: 'date-time' },
        CodigoRespuesta: { type: ['integer', 'null'] },
        DuracionMs: { type: 'integer' },
        Error: { type: ['string', 'null'] },
      }),
    },
  })
)

export const EntregasSchema = named(
  'Entregas',
  object({ _links: LinksSchema, _entries: { type: 'array', items: EntregaSchema } })
)

export const EntregasRefSchema = named(
  'EntregasRef',
  object({ _links: LinksSchema, _entries: { type: 'array', items: ReferenceSchema } })
)

const STATUS: Record<string, string> = {
  pending: 'Pendiente',
  delivered: 'Entregada',
  failed: 'Reintentando',
  dead: 'Fallida',
  disabled: 'Desactivada',
}

export function deliveryFull(delivery: Delivery): Wire<typeof EntregaSchema> {
  return {
    Canal: CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel,
    Destino: delivery.target,
    Estado: (STATUS[delivery.status] ?? delivery.status) as Wire<typeof EntregaSchema>['Estado'],
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
}

/** Entries have no URL of their own: the reference points at the log. */
export function deliveryRef(delivery: Delivery, logHref: string): Wire<typeof ReferenceSchema> {
  const channel = CHANNELS[delivery.channel as Channel]?.wire ?? delivery.channel
  return {
    href: logHref,
    title: `${channel} → ${delivery.target}: ${STATUS[delivery.status] ?? delivery.status}`,
  }
}

export function deliveryListShapes(deliveries: Delivery[], adminMail: string, sid: string) {
  const self = inquiryPath(adminMail, sid)
  const _links = { self: link(`${self}/entregas`), consulta: link(self) }
  return {
    full: (): Wire<typeof EntregasSchema> => ({ _links, _entries: deliveries.map(deliveryFull) }),
    ref: (): Wire<typeof EntregasRefSchema> => ({
      _links,
      _entries: deliveries.map((delivery) => deliveryRef(delivery, `${self}/entregas`)),
    }),
  }
}
