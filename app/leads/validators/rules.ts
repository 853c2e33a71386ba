/*
 * Vine rules of this module's validators.
 */
import vine from '@vinejs/vine'
import { canonical } from '#core/value_sets'
import { settings } from '#core/settings'

/** One of a closed value set (DESIGN.md §5), matched case- and accent-insensitively; yields the canonical spelling. */
export const oneOf = vine.createRule(
  (value: unknown, values: readonly string[], field) => {
    if (typeof value !== 'string') return
    const found = canonical(values, value)
    if (found === undefined) return field.report('El valor de {{ field }} no es válido.', 'in', field)
    field.mutate(found, field)
  },
  { name: 'oneOf' }
)

/**
 * A notification callback: an absolute https URL without credentials
 * (http only when OUTBOUND_ALLOW_PRIVATE, i.e. local testing).
 */
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
