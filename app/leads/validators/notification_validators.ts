/*
 * Wire → code for NotificacionesConfig (docs/spec.md §2.14). Callback: absolute https
 * URL (http only with OUTBOUND_ALLOW_PRIVATE), ≤ 1024; Secret 16..256 and
 * write-only; up to 10 blind-copy addresses.
 */
import { emailAddress, isEmailAddress } from '#core/http/rules'
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { customHeader } from '#core/outbound/custom_header'
import { CALLBACK_MAX, callbackUrl } from '#core/outbound/callback_url'
import { SECRET_MAX, SECRET_MIN, secretLength } from '#core/outbound/secret_rule'
import type { StoredHeader } from '#leads/models/notification_config'

export const NOTIFICATION_LIMITS = {
  callback: CALLBACK_MAX,
  secretMin: SECRET_MIN,
  secret: SECRET_MAX,
  email: 254,
  bcc: 10,
} as const

const callback = () =>
  vine.string().trim().maxLength(NOTIFICATION_LIMITS.callback).use(callbackUrl())
const active = () => vine.boolean().optional()
const header = () => customHeader.nullable().optional()

/** The addresses of an `EmailsCCO` list, lower-cased, without repeats. */
export function splitEmails(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[,;]/)
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean)
    ),
  ]
}

/** A comma-separated list of e-mails: each valid, at most 10, no repeats. */
const emailList = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string') return
    const emails = splitEmails(value)
    if (emails.length === 0)
      return field.report(
        'El campo {{ field }} debe tener al menos una dirección.',
        'emailList',
        field
      )
    if (emails.length > NOTIFICATION_LIMITS.bcc) {
      return field.report(
        `El campo {{ field }} admite a lo sumo ${NOTIFICATION_LIMITS.bcc} direcciones.`,
        'emailList',
        field
      )
    }
    const invalid = emails.filter(
      (entry) => entry.length > NOTIFICATION_LIMITS.email || !isEmailAddress(entry)
    )
    if (invalid.length > 0) {
      return field.report(
        `Direcciones no válidas en {{ field }}: ${invalid.join(', ')}.`,
        'emailList',
        field
      )
    }
  },
  { name: 'emailList' }
)

export const notificationConfigValidator = vine.create({
  PublicacionConsultadaWebHook: vine
    .object({
      Callback: callback(),
      // '' removes the stored secret; null or absent keeps it (responses never carry it).
      Secret: vine
        .string()
        .trim()
        .maxLength(NOTIFICATION_LIMITS.secret)
        .use(secretLength())
        .nullable()
        .optional(),
      Activo: active(),
      HeaderCustom01: header(),
      HeaderCustom02: header(),
      HeaderCustom03: header(),
    })
    .nullable()
    .optional(),
  PublicacionConsultadaAdfHook: vine
    .object({ Callback: callback(), Activo: active(), HeaderCustom01: header() })
    .nullable()
    .optional(),
  PublicacionConsultadaAdfMail: vine
    .object({
      Email: vine.string().trim().maxLength(NOTIFICATION_LIMITS.email).use(emailAddress()),
      Activo: active(),
    })
    .nullable()
    .optional(),
  PublicacionConsultadaHtmlMail: vine
    .object({ EmailsCCO: vine.string().maxLength(2600).use(emailList()), Activo: active() })
    .nullable()
    .optional(),
})

export type NotificationConfigInput = Infer<typeof notificationConfigValidator>

type WireHeader = { Name: string; Value: string } | null | undefined

const storedHeaders = (...headers: WireHeader[]): StoredHeader[] =>
  headers.map((item) => (item ? { name: item.Name, value: item.Value } : null))

/**
 * The four channels in code names (what SaveNotificationConfig stores): null =
 * the channel is removed; `secret` undefined keeps the stored one, null drops it.
 */
export type NotificationSettings = {
  webhook: {
    callback: string
    active: boolean
    headers: StoredHeader[]
    secret: string | null | undefined
  } | null
  adfHook: { callback: string; active: boolean; headers: StoredHeader[] } | null
  adfMail: { email: string; active: boolean } | null
  htmlMail: { bcc: string[]; active: boolean } | null
}

/** Wire → code: `Activo` defaults to true; a Secret of '' removes the stored one, null or absent keeps it. */
export function toNotificationSettings(input: NotificationConfigInput): NotificationSettings {
  const webhook = input.PublicacionConsultadaWebHook
  const adfHook = input.PublicacionConsultadaAdfHook
  const adfMail = input.PublicacionConsultadaAdfMail
  const htmlMail = input.PublicacionConsultadaHtmlMail
  return {
    webhook: webhook
      ? {
          callback: webhook.Callback,
          active: webhook.Activo ?? true,
          headers: storedHeaders(
            webhook.HeaderCustom01,
            webhook.HeaderCustom02,
            webhook.HeaderCustom03
          ),
          secret: webhook.Secret === '' ? null : (webhook.Secret ?? undefined),
        }
      : null,
    adfHook: adfHook
      ? {
          callback: adfHook.Callback,
          active: adfHook.Activo ?? true,
          headers: storedHeaders(adfHook.HeaderCustom01),
        }
      : null,
    adfMail: adfMail
      ? { email: adfMail.Email.toLowerCase(), active: adfMail.Activo ?? true }
      : null,
    htmlMail: htmlMail
      ? { bcc: splitEmails(htmlMail.EmailsCCO), active: htmlMail.Activo ?? true }
      : null,
  }
}

/** `canal` of POST /v3/notificaciones/{adminmail}/prueba: the member name of the channel to test. */
export const TEST_CHANNELS = {
  PublicacionConsultadaWebHook: 'webhook',
  PublicacionConsultadaAdfHook: 'adfHook',
} as const

export const notificationTestValidator = vine.create({
  canal: vine.enum(Object.keys(TEST_CHANNELS) as Array<keyof typeof TEST_CHANNELS>).optional(),
})

/** The channel to test; the lead webhook by default. */
export function toTestChannel(query: Infer<typeof notificationTestValidator>) {
  return TEST_CHANNELS[query.canal ?? 'PublicacionConsultadaWebHook']
}
