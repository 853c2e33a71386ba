/*
 * Query of GET /v3/visitas/{adminmail}{?externalid,desde,hasta,operador}.
 * Dates are calendar days (YYYY-MM-DD). Without `hasta` the period ends
 * today; without `desde` it covers the 30 days up to `hasta`; at most
 * MAX_SPAN_DAYS days may separate them.
 */
import { emailAddress } from '#core/http/rules'
import vine from '@vinejs/vine'
import { DateTime } from 'luxon'
import { fail, ok, type Result } from '#core/result'
import { periodQuery } from '#core/http/period_query'
import { daysBetween, shiftDay, today } from '#buyers/services/visit_clock'

export const MAX_SPAN_DAYS = 90
export const DEFAULT_SPAN_DAYS = 29

export const visitsQueryValidator = vine.create(
  vine.object({
    externalid: vine
      .string()
      .trim()
      .minLength(2)
      .maxLength(255)
      .regex(/^[A-Za-z0-9._~-]+$/)
      .optional(),
    ...periodQuery(),
    operador: vine.string().trim().use(emailAddress()).maxLength(254).optional(),
  })
)

export type VisitPeriod = { from: string; to: string }

const day = (date: Date) => DateTime.fromJSDate(date).toISODate()!

/** The period in force, or the wire errors of a too long one. */
export function visitPeriod(query: {
  desde?: Date
  hasta?: Date
}): Result<VisitPeriod, 'too_long'> {
  const to = query.hasta ? day(query.hasta) : today()
  const from = query.desde ? day(query.desde) : shiftDay(to, -DEFAULT_SPAN_DAYS)
  if (daysBetween(from, to) < 0) {
    return fail('too_long', { errors: { hasta: ['El campo hasta no debe ser anterior a desde.'] } })
  }
  if (daysBetween(from, to) > MAX_SPAN_DAYS) {
    return fail('too_long', {
      errors: { hasta: [`El período entre desde y hasta no debe superar ${MAX_SPAN_DAYS} días.`] },
    })
  }
  return ok({ from, to })
}
