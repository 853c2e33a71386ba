/*
 * Wire → code for inquiries: the intake body (docs/design.md §6) and the query of
 * the inquiry list (docs/spec.md §4.5). Caps are recorded in docs/decisions/leads.md.
 */
import vine from '@vinejs/vine'
import { DateTime } from 'luxon'
import type { Infer } from '@vinejs/vine/types'
import { INTERESTS, LEAD_ORIGINS } from '#core/value_sets'
import { settings } from '#core/settings'
import { oneOf, emailAddress } from '#core/http/rules'
import { calendarDay, periodQuery } from '#core/http/period_query'

export const LIMITS = {
  name: 50,
  email: 100,
  phoneMin: 6,
  phone: 30,
  documentId: 20,
  place: 100,
  comment: 2000,
  amount: 999_999_999_999.99,
  listDays: 90,
  maxPage: 99,
  perPage: 100,
} as const

const text = (max: number) => vine.string().trim().maxLength(max).nullable().optional()

const valor = () =>
  vine
    .object({
      Moneda: vine.string().trim().use(oneOf(settings.acceptedCurrencies)),
      Importe: vine.number().min(0).max(LIMITS.amount),
    })
    .nullable()
    .optional()

export const intakeValidator = vine.create({
  ExternalId: vine
    .string()
    .trim()
    .minLength(2)
    .maxLength(255)
    .regex(/^[A-Za-z0-9._~-]+$/)
    .nullable()
    .optional(),
  VersionId: vine.number().withoutDecimals().min(1).max(2_147_483_647).nullable().optional(),
  OrigenLead: vine.string().trim().use(oneOf(LEAD_ORIGINS)),
  Interesado: vine.object({
    Interes: vine.string().trim().use(oneOf(INTERESTS)).nullable().optional(),
    Nombre: text(LIMITS.name),
    Apellido: text(LIMITS.name),
    Email: vine.string().trim().maxLength(LIMITS.email).use(emailAddress()).nullable().optional(),
    Telefono: vine
      .string()
      .trim()
      .minLength(LIMITS.phoneMin)
      .maxLength(LIMITS.phone)
      .regex(/^\+?[0-9 ().-]+$/)
      .nullable()
      .optional(),
    DocIdentidad: text(LIMITS.documentId),
    Provincia: text(LIMITS.place),
    Ciudad: text(LIMITS.place),
    Comentario: text(LIMITS.comment),
    InfoOperacion: vine
      .object({
        EntregaVehiculo: vine
          .object({
            Marca: text(LIMITS.name),
            Modelo: text(LIMITS.name),
            VersionYear: vine.number().withoutDecimals().range([1908, 2050]).nullable().optional(),
          })
          .nullable()
          .optional(),
        FinanciacionDeseada: vine
          .object({ Adelanto: valor(), Cuota: valor() })
          .nullable()
          .optional(),
        QuiereCotizacionSeguro: vine.boolean().nullable().optional(),
      })
      .nullable()
      .optional(),
  }),
})

export type IntakeInput = Infer<typeof intakeValidator>

/** Today (in TZ) as YYYY-MM-DD, shifted by `days`. */
export function dayInZone(days = 0): string {
  return DateTime.now().setZone(settings.timezone).plus({ days }).toISODate()!
}

export const listQueryValidator = vine.create({
  operador: vine.string().trim().maxLength(254).use(emailAddress()).optional(),
  externalid: vine.string().trim().minLength(1).maxLength(255).optional(),
  ...periodQuery(calendarDay().afterOrEqual(() => dayInZone(-LIMITS.listDays))),
  pagina: vine.number().withoutDecimals().range([1, LIMITS.maxPage]).optional(),
})

export type ListQuery = Infer<typeof listQueryValidator>
