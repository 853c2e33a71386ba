/*
 * Code → wire for NotificacionesConfig (docs/spec.md §2.14). `Secret` is write-only:
 * responses always carry null there, and `SecretConfigurado` says whether one
 * is stored (docs/design.md §19). The ADF hook has no Secret (it is not signed).
 */
import type { DateTime } from 'luxon'
import { link, path } from '#core/http/links'
import { moment } from '#leads/transformers/inquiry_transformer'
import type NotificationConfig from '#leads/models/notification_config'
import { named, object, nullableObject, type Wire } from '#core/openapi/schema'
import { LinksSchema, type ReferenceSchema } from '#core/openapi/wire'
import {
  HeaderCustomSchema,
  HeaderCustomSlots,
  wireHeader,
  wireHeaderSlots,
} from '#core/outbound/custom_header'

const callback = { type: 'string', format: 'uri' } as const
const active = { type: 'boolean' } as const

export const NotificacionesConfigSchema = named(
  'NotificacionesConfig',
  object({
    PublicacionConsultadaWebHook: nullableObject({
      Callback: callback,
      Secret: { type: 'null', description: 'Nunca se devuelve' },
      SecretConfigurado: {
        type: 'boolean',
        description:
          'true si hay un Secret guardado (los envíos van firmados); el Secret nunca se devuelve',
      },
      Activo: active,
      ...HeaderCustomSlots,
    }),
    PublicacionConsultadaAdfHook: nullableObject({
      Callback: callback,
      Activo: active,
      HeaderCustom01: HeaderCustomSchema,
    }),
    PublicacionConsultadaAdfMail: nullableObject({
      Email: { type: 'string', format: 'email' },
      Activo: active,
    }),
    PublicacionConsultadaHtmlMail: nullableObject({
      EmailsCCO: {
        type: 'string',
        description: 'Direcciones separadas por comas (copia oculta)',
      },
      Activo: active,
    }),
    _links: LinksSchema,
  })
)

export function notificationConfigFull(
  config: NotificationConfig | null,
  adminMail: string
): Wire<typeof NotificacionesConfigSchema> {
  const self = path('notificaciones', adminMail)
  return {
    PublicacionConsultadaWebHook: config?.webhookCallback
      ? {
          Callback: config.webhookCallback,
          Secret: null,
          SecretConfigurado: Boolean(config.webhookSecret),
          Activo: config.webhookActive,
          ...wireHeaderSlots(config.webhookHeaders),
        }
      : null,
    PublicacionConsultadaAdfHook: config?.adfHookCallback
      ? {
          Callback: config.adfHookCallback,
          Activo: config.adfHookActive,
          HeaderCustom01: wireHeader(config.adfHookHeaders, 0),
        }
      : null,
    PublicacionConsultadaAdfMail: config?.adfMailEmail
      ? { Email: config.adfMailEmail, Activo: config.adfMailActive }
      : null,
    PublicacionConsultadaHtmlMail:
      config && config.htmlMailBcc.length > 0
        ? { EmailsCCO: config.htmlMailBcc.join(', '), Activo: config.htmlMailActive }
        : null,
    _links: { self: link(self), edit: link(self, { method: 'PUT' }) },
  }
}

export function notificationConfigRef(adminMail: string): Wire<typeof ReferenceSchema> {
  return { href: path('notificaciones', adminMail), title: `Notificaciones de ${adminMail}` }
}

export function notificationConfigShapes(config: NotificationConfig | null, adminMail: string) {
  return {
    full: () => notificationConfigFull(config, adminMail),
    ref: () => notificationConfigRef(adminMail),
  }
}

export const PublicacionConsultadaPruebaSchema = named('PublicacionConsultadaPrueba', {
  type: 'object',
  description:
    'Carga de POST /v3/notificaciones/{adminmail}/prueba al webhook: la forma de PublicacionConsultada con ' +
    'Tipo "Prueba" y Consulta null; firmada como las entregas (Standard Webhooks, con el Secret).',
  required: ['Tipo', 'Momento', 'Agencia', 'Consulta'],
  properties: {
    Tipo: { type: 'string', const: 'Prueba' },
    Momento: { type: 'string', format: 'date-time' },
    Agencia: object({ AdminMail: { type: 'string' }, href: { type: 'string' } }),
    Consulta: { type: 'null' },
  },
})

/** The lead webhook's test payload: PublicacionConsultada's members, no inquiry. */
export function notificationTestPayload(
  adminMail: string,
  at: DateTime
): Wire<typeof PublicacionConsultadaPruebaSchema> {
  return {
    Tipo: 'Prueba' as const,
    Momento: moment(at),
    Agencia: { AdminMail: adminMail, href: path('agencias', adminMail) },
    Consulta: null,
  }
}
