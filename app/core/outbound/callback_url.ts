/*
 * Vine rule for delivery callbacks (webhook `Callback` fields): an absolute
 * https URL without credentials — http too while OUTBOUND_ALLOW_PRIVATE is on
 * (local testing). Reachability (public addresses only) is enforced again by
 * the outbound client at connect time, on every delivery.
 *
 *   Callback: vine.string().trim().maxLength(1024).use(callbackUrl())
 */
import vine from '@vinejs/vine'
import { settings } from '#core/settings'

export const CALLBACK_MAX = 1024

export const callbackUrl = vine.createRule(
  (value: unknown, _options: undefined, field) => {
    if (typeof value !== 'string') return
    let url: URL
    try {
      url = new URL(value)
    } catch {
      return field.report('El campo {{ field }} debe ser una URL absoluta.', 'callbackUrl', field)
    }
    const schemes = settings.outboundAllowPrivate ? ['https:', 'http:'] : ['https:']
    if (!schemes.includes(url.protocol)) {
      return field.report('El campo {{ field }} debe ser una URL https.', 'callbackUrl', field)
    }
    if (url.username || url.password) {
      return field.report('El campo {{ field }} no debe llevar credenciales.', 'callbackUrl', field)
    }
  },
  { name: 'callbackUrl' }
)
