/*
 * Instants on the wire: ISO 8601 in the service's zone (TZ), milliseconds only
 * when not zero — exactly what luxon's `setZone(TZ).toISO({ suppressMilliseconds: true })`
 * gives, without its Intl round trip per value (a page of 100 inquiries spent
 * more time there than in its query). The zone's offset is asked of luxon once
 * per quarter hour of time and reused for every instant in it; a quarter whose
 * two ends disagree (a change of offset inside it) is never cached.
 */
import { DateTime } from 'luxon'
import { settings } from '#core/settings'

const QUARTER_MS = 15 * 60_000
const MAX_CACHED = 4096

type Offset = { ms: number; suffix: string }
const offsets = new Map<number, Offset | null>()
let cachedZone = ''

function offsetAt(ms: number, zone: string): Offset {
  const at = DateTime.fromMillis(ms, { zone })
  const iso = at.toISO({ suppressMilliseconds: true, includeOffset: true })!
  // Whatever follows the seconds (and milliseconds): `Z` or ±HH:MM.
  return { ms: at.offset * 60_000, suffix: iso.slice(19).replace(/^\.\d+/, '') }
}

function offsetOf(ms: number): Offset {
  const zone = settings.timezone
  if (zone !== cachedZone) {
    offsets.clear()
    cachedZone = zone
  }
  const quarter = Math.floor(ms / QUARTER_MS)
  let known = offsets.get(quarter)
  if (known === undefined) {
    const start = offsetAt(quarter * QUARTER_MS, zone)
    const end = offsetAt(quarter * QUARTER_MS + QUARTER_MS - 1, zone)
    known = start.ms === end.ms && start.suffix === end.suffix ? start : null
    if (offsets.size >= MAX_CACHED) offsets.clear()
    offsets.set(quarter, known)
  }
  return known ?? offsetAt(ms, zone)
}

/** An instant as the API writes it: `2026-11-24T09:15:02-03:00` (`.123` when the milliseconds are not 0). */
export function wireTime(value: Date | DateTime): string {
  const ms = value instanceof Date ? value.getTime() : value.toMillis()
  const offset = offsetOf(ms)
  const local = new Date(ms + offset.ms).toISOString() // YYYY-MM-DDTHH:mm:ss.sssZ, read as local time
  const millis = ms % 1000 === 0 ? '' : local.slice(19, 23)
  return local.slice(0, 19) + millis + offset.suffix
}

/**
 * An instant as a person reads it in a mail or a page: `26 de noviembre de 2026, 19:35 (UTC-3,
 * America/Argentina/Buenos_Aires)` — in the service's zone, which it names, so a reader elsewhere
 * is not misled.
 */
export function readableTime(value: Date | DateTime | string): string {
  const at =
    typeof value === 'string'
      ? DateTime.fromISO(value)
      : value instanceof Date
        ? DateTime.fromJSDate(value)
        : value
  const local = at.setZone(settings.timezone).setLocale('es')
  return `${local.toFormat("d 'de' MMMM 'de' yyyy, HH:mm")} (UTC${local.toFormat('Z')}, ${settings.timezone})`
}
