/*
 * The `desde`/`hasta` pair of the report and list queries: calendar days
 * (YYYY-MM-DD), both optional, `hasta` not before `desde`.
 */
import vine from '@vinejs/vine'
import type { VineDate } from '@vinejs/vine'

/** Vine describes a date field without a type; the wire form is a calendar day. */
const DAY = { type: 'string', format: 'date' } as const

/** A calendar-day field, for the caller to add its own bounds to. */
export const calendarDay = () => vine.date({ formats: ['YYYY-MM-DD'] })

/** Spread into a query object; `desde` may carry the caller's lower bound. */
export function periodQuery(desde: VineDate = calendarDay()) {
  return {
    desde: desde.optional().meta(DAY),
    hasta: calendarDay().afterOrSameAs('desde').optional().meta(DAY),
  }
}
