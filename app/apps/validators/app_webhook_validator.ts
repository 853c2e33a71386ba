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

export const APP_WEBHOOK_LIMITS = {
  callback: CALLBACK_MAX,
  secretMin: 16,
  secret: 256,
  description: 200,
} as const

const secretLength = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string' || value === '') return
    if (value.length < APP_WEBHOOK_LIMITS.secretMin) {
      field.report(
        `El campo {{ field }} debe tener al menos ${APP_WEBHOOK_LIMITS.secretMin} caracteres.`,
        'secretLength',
        field
      )
    }
  },
  {
    name: 'secretLength',
    toJSONSchema: (schema) => {
      schema.pattern = `^(|[\\s\\S]{${APP_WEBHOOK_LIMITS.secretMin},})$`
      schema.description =
        'Clave de firma (`whsec_…` en base64 o texto libre). Solo escritura: null o ausente la conserva, "" la elimina.'
    },
  }
)

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
