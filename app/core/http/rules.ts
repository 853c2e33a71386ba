/*
 * Vine rules shared by every module's validators.
 */
import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { canonical } from '#core/value_sets'

/**
 * One of a closed value set (docs/design.md §5), matched case- and
 * accent-insensitively; the field becomes the canonical spelling.
 */
export const oneOf = vine.createRule(
  (value: unknown, values: readonly string[], field: FieldContext) => {
    if (typeof value !== 'string') return
    const match = canonical(values, value)
    if (match === undefined) {
      field.report(
        `El valor de {{ field }} no es válido; valores admitidos: ${values.join(', ')}.`,
        'in',
        field
      )
      return
    }
    field.mutate(match, field)
  },
  {
    name: 'oneOf',
    // The document lists the canonical spellings; matching is more lenient.
    toJSONSchema: (schema, values) => {
      schema.enum = [...values, ...(Array.isArray(schema.type) ? [null] : [])]
    },
  }
)

/**
 * E-mail addresses (docs/design.md §13): a practical RFC 5321 subset that survives
 * every place an address travels — path segments, query values, `Location`.
 * Local part: dot-separated atoms of ASCII letters, digits and
 * `!$&'*+=^_\`{|}~-` (no `/ ? # %`, no quotes, no whitespace or control
 * characters), at most 64; domain: LDH labels of 1..63 with an alphabetic
 * (or `xn--`) top-level label; at most 254 in all.
 */
const ATOM = "[A-Za-z0-9!$&'*+=^_`{|}~-]+"
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
const EMAIL_FORMAT = new RegExp(
  `^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$`
)

export const EMAIL_MAX = 254

export function isEmailAddress(value: string): boolean {
  const at = value.lastIndexOf('@')
  return value.length <= EMAIL_MAX && at >= 1 && at <= 64 && EMAIL_FORMAT.test(value)
}

/** The one e-mail rule of every validator: `vine.string().trim().use(emailAddress())`. */
export const emailAddress = vine.createRule(
  (value: unknown, _options: undefined, field: FieldContext) => {
    if (typeof value !== 'string') return
    if (!isEmailAddress(value))
      field.report('El campo {{ field }} debe ser una dirección de correo válida.', 'email', field)
  },
  {
    name: 'emailAddress',
    toJSONSchema: (schema) => {
      schema.format = 'email'
    },
  }
)
