/*
 * Wire → code for AppWebhook (`/v3/appnotificaciones/{topic}`).
 * Callback: absolute https URL (http only with OUTBOUND_ALLOW_PRIVATE), ≤ 1024.
 * Secret: 16..256, write-only; null or absent keeps the stored one (responses
 * carry null, so a read-modify-write round trip cannot erase it), '' removes it.
 * Description ≤ 200. Activo defaults to true. HeaderCustom01..03: `{Name, Value}` or null.
 */
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { customHeader } from '#core/outbound/custom_header'
import { CALLBACK_MAX, callbackUrl } from '#core/outbound/callback_url'
import { SECRET_MAX, SECRET_MIN, secretLength } from '#core/outbound/secret_rule'

export const APP_WEBHOOK_LIMITS = {
  callback: CALLBACK_MAX,
  secretMin: SECRET_MIN,
  secret: SECRET_MAX,
  description: 200,
} as const

export const appWebhookValidator = vine.create({
  Callback: vine.string().trim().maxLength(APP_WEBHOOK_LIMITS.callback).use(callbackUrl()),
  Secret: vine
    .string()
    .maxLength(APP_WEBHOOK_LIMITS.secret)
    .use(secretLength())
    .nullable()
    .optional(),
  Description: vine.string().maxLength(APP_WEBHOOK_LIMITS.description).nullable().optional(),
  Activo: vine.boolean({ strict: true }).optional(),
  HeaderCustom01: customHeader.nullable().optional(),
  HeaderCustom02: customHeader.nullable().optional(),
  HeaderCustom03: customHeader.nullable().optional(),
})

export type AppWebhookInput = Infer<typeof appWebhookValidator>
