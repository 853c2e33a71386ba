/*
 * Wire → code for the privacy routes (docs/design.md §16): a request names the
 * person by at least one of Email, Telefono (at least 8 digits) and
 * DocIdentidad (its digits); the retention is 30..3650 days.
 */
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { emailAddress, oneOf } from '#core/http/rules'
import { PHONE_MIN_DIGITS } from '#leads/services/buyer_data'
import {
  digits,
  DOCUMENT_MIN_DIGITS,
  type Identifiers,
  type RequestKind,
} from '#buyers/services/privacy/subject'
import { RETENTION_MAX_DAYS, RETENTION_MIN_DAYS } from '#buyers/services/privacy/retention_settings'

export const REQUEST_KINDS = ['Acceso', 'Supresion'] as const

export const privacyRequestValidator = vine.create({
  Tipo: vine
    .string()
    .trim()
    .use(oneOf(REQUEST_KINDS))
    .meta({ description: 'Acceso (art. 14: qué se guarda) o Supresion (art. 16: borrarlo)' }),
  Email: vine
    .string()
    .trim()
    .maxLength(254)
    .use(emailAddress())
    .optional()
    .meta({ description: 'Correo del interesado (sin distinguir mayúsculas)' }),
  Telefono: vine
    .string()
    .trim()
    .maxLength(30)
    .optional()
    .meta({
      description: `Teléfono del interesado: coincide cuando los dígitos de uno terminan con los del otro (al menos ${PHONE_MIN_DIGITS})`,
    }),
  DocIdentidad: vine
    .string()
    .trim()
    .maxLength(20)
    .optional()
    .meta({ description: 'Documento del interesado: se comparan sus dígitos' }),
})

export type PrivacyRequestBody = Infer<typeof privacyRequestValidator>

/** The rules across fields; `Errors` keyed as the wire names them, or null. */
export function requestErrors(body: PrivacyRequestBody): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {}
  if (!body.Email && !body.Telefono && !body.DocIdentidad)
    errors._ = ['Indique al menos uno de Email, Telefono o DocIdentidad.']
  if (body.Telefono && digits(body.Telefono).length < PHONE_MIN_DIGITS)
    errors.Telefono = [`El campo Telefono debe tener al menos ${PHONE_MIN_DIGITS} dígitos.`]
  if (body.DocIdentidad && digits(body.DocIdentidad).length < DOCUMENT_MIN_DIGITS)
    errors.DocIdentidad = [
      `El campo DocIdentidad debe tener al menos ${DOCUMENT_MIN_DIGITS} dígitos.`,
    ]
  return Object.keys(errors).length ? errors : null
}

export function toRequest(body: PrivacyRequestBody): {
  kind: RequestKind
  identifiers: Identifiers
} {
  return {
    kind: body.Tipo === 'Acceso' ? 'access' : 'erasure',
    identifiers: {
      email: body.Email ?? null,
      phone: body.Telefono ?? null,
      document: body.DocIdentidad ?? null,
    },
  }
}

export const retentionValidator = vine.create({
  RetencionDias: vine
    .number({ strict: true })
    .withoutDecimals()
    .range([RETENTION_MIN_DAYS, RETENTION_MAX_DAYS])
    .meta({
      description: `Días que las consultas conservan los datos del interesado (${RETENTION_MIN_DAYS}..${RETENTION_MAX_DAYS})`,
    }),
})

export const requestListValidator = vine.create({
  pagina: vine.number().withoutDecimals().range([1, 99]).optional(),
})
