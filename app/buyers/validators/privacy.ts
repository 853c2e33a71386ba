/*
 * Wire → code for the privacy routes (docs/design.md §16, §25): a request
 * names the person by at least one of Email, Telefono and DocIdentidad (a
 * phone without area code only beside one of the other two); the retention
 * is 30..3650 days.
 */
import vine from '@vinejs/vine'
import type { Infer } from '@vinejs/vine/types'
import { emailAddress, oneOf } from '#core/http/rules'
import { type Identifiers, type RequestKind } from '#buyers/services/privacy/subject'
import {
  documentKey,
  DOCUMENT_MIN_DIGITS,
  phoneKey,
  PHONE_MIN_DIGITS,
} from '#buyers/services/privacy/matching'
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
      description:
        'Teléfono del interesado: se compara como número nacional (código de área y abonado; sin +54, 9, 0 ni 15). ' +
        'Uno sin código de área solo identifica junto con Email o DocIdentidad',
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
  const document = body.DocIdentidad ? documentKey(body.DocIdentidad) : null
  if (body.DocIdentidad && !document)
    errors.DocIdentidad = [
      `El campo DocIdentidad debe tener al menos ${DOCUMENT_MIN_DIGITS} dígitos.`,
    ]
  if (body.Telefono) {
    const phone = phoneKey(body.Telefono)
    if (!phone)
      errors.Telefono = [`El campo Telefono debe tener al menos ${PHONE_MIN_DIGITS} dígitos.`]
    else if (phone.kind === 'local' && !body.Email && !document)
      errors.Telefono = [
        'Un Telefono sin código de área identifica a la persona solo junto con Email o DocIdentidad.',
      ]
  }
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
