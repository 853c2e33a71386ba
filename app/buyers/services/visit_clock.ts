/*
 * Visit days are calendar days in the service's time zone (settings.timezone),
 * as `YYYY-MM-DD` strings end to end: no Date object ever crosses a zone.
 */
import { DateTime } from 'luxon'
import { settings } from '#core/settings'

export function today(at: DateTime = DateTime.now()): string {
  return at.setZone(settings.timezone).toISODate()!
}

/** `day` moved by `days` (negative: earlier). */
export function shiftDay(day: string, days: number): string {
  return DateTime.fromISO(day, { zone: settings.timezone }).plus({ days }).toISODate()!
}

/** Whole days from `from` to `to` (0 when equal). */
export function daysBetween(from: string, to: string): number {
  const start = DateTime.fromISO(from, { zone: 'utc' })
  const end = DateTime.fromISO(to, { zone: 'utc' })
  return Math.round(end.diff(start, 'days').days)
}
