/*
 * Rules of docs/spec.md §2.3/§3/§8 and docs/design.md §7 that need no database: the state
 * machine, mileage plausibility, exposure choice, the responsible phone.
 */
import { fail, ok, type Fail, type Ok } from '#core/result'
import { wireTime } from '#core/wire_time'
import type { Exposure, ListingState, Spec } from '#listings/models/listing'
import type { ListingIssue, ListingNotice } from './listing_failures.js'

/** Best first. */
export const EXPOSURE_ORDER: Exposure[] = ['high', 'medium', 'low']

/** A used vehicle may not average more than this many km per year of age. */
export const MAX_KM_PER_YEAR = 100_000
/** 0 km (a new vehicle) is plausible for this year's and last year's models only. */
export const NEW_VEHICLE_MAX_AGE = 1

/** This year in TZ (the first four characters of now as the API writes it). */
export const currentYear = () => Number(wireTime(new Date()).slice(0, 4))

/**
 * Archived is terminal (every change → conflict); active and suspended move
 * freely between each other, subject to the activation conditions checked by
 * the plan guard.
 */
export function transition(
  from: ListingState,
  to: ListingState
): Ok<{ activating: boolean }> | Fail<'archived'> {
  if (from === 'archived') return fail('archived')
  return ok({ activating: to === 'active' && from !== 'active' })
}

/** What is wrong with the mileage given the vehicle's year, if anything. */
export function mileageIssue(
  year: number,
  mileage: number,
  thisYear = currentYear()
): ListingIssue | null {
  const age = thisYear - year
  if (mileage === 0 && age > NEW_VEHICLE_MAX_AGE) {
    return { field: 'mileage', issue: 'zero_when_used', year }
  }
  const ceiling = MAX_KM_PER_YEAR * Math.max(1, age)
  if (mileage > ceiling) return { field: 'mileage', issue: 'implausible', year, mileage, ceiling }
  return null
}

export type PlanView = { capacity: number; quotas: Record<Exposure, number> }

/**
 * The exposure a listing gets: the one asked for (or kept) while its quota
 * has room, else the best level with room left. `used` counts the agency's
 * other active listings per level.
 */
export function chooseExposure(options: {
  requested: Exposure | null | undefined
  current: Exposure | undefined
  plan: PlanView
  used: Record<Exposure, number>
  willBeActive: boolean
}): Ok<Exposure> | Fail<'no_quota'> {
  const { requested, current, plan, used, willBeActive } = options
  const room = (level: Exposure) => plan.quotas[level] - (willBeActive ? used[level] : 0) > 0
  if (requested && room(requested)) return ok(requested)
  if (requested === undefined && current && room(current)) return ok(current)
  const best = EXPOSURE_ORDER.find(room)
  if (best) return ok(best)
  if (!willBeActive) return ok(requested ?? current ?? 'low')
  return fail('no_quota')
}

/**
 * The sales phone: the one sent must be one of the operator's phones; null
 * picks the operator's first; not sent keeps the current one while valid.
 */
export function choosePhone(
  sent: string | null | undefined,
  current: string | null,
  phones: string[]
): Ok<string | null> | Fail<'not_of_operator'> {
  if (typeof sent === 'string') return phones.includes(sent) ? ok(sent) : fail('not_of_operator')
  if (sent === undefined && current && phones.includes(current)) return ok(current)
  return ok(phones[0] ?? null)
}

/** Whether two lists hold the same strings in the same order. */
export function sameList(a: readonly string[], b: readonly string[]) {
  return a.length === b.length && a.every((item, index) => item === b[index])
}

/**
 * What becomes of a `Fotos` list (docs/spec.md §2.3, docs/design.md §25): the
 * photos the representation shows sent back (a GET → PUT) or the list the
 * listing has: nothing; the spec's count rule ignores a list as long as the
 * listing's (`ignored`, said in an Aviso); any other list replaces them.
 */
export function photoChange(
  sent: string[] | null | undefined,
  listing: { shown: readonly string[]; count: number; sources?: readonly string[] }
): 'none' | 'ignored' | 'replace' {
  if (!Array.isArray(sent) || sameList(sent, listing.shown)) return 'none'
  if (sent.length !== listing.count) return 'replace'
  return listing.sources && sameList(sent, listing.sources) ? 'none' : 'ignored'
}

/**
 * The notice of an exposure that is not the one asked for (or, not asking,
 * the one the listing had): its quota was full.
 */
export function exposureNotice(
  requested: Exposure | null | undefined,
  current: Exposure | undefined,
  given: Exposure
): ListingNotice | null {
  const wanted = requested === undefined ? current : requested
  return wanted && wanted !== given
    ? { field: 'exposure', issue: 'quota_full', requested: wanted, given }
    : null
}

/** Whether two technical data lists say the same, in the same order. */
export function sameSpecs(a: readonly Spec[], b: readonly Spec[]) {
  return (
    a.length === b.length &&
    a.every((spec, index) => spec.name === b[index].name && spec.value === b[index].value)
  )
}

/** `brand-model-year-xxxxxx`: readable, unique, stable once created. */
export function slugFor(brand: string, model: string, year: number, shortId: string) {
  const part = (value: string) =>
    value
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'auto'
  return `${part(brand)}-${part(model)}-${year}-${shortId}`
}

/** `down_payment_amount` → `downPaymentAmount`: the stored attribute a column value lands in. */
const attributeOf = (column: string) =>
  column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/**
 * True when writing `values` (ApplyEdit's columns) would leave `listing` as it
 * is: such a PUT or PATCH writes nothing and keeps its revision, so the ETag
 * every cached copy and If-Match holds stays good (docs/design.md §19).
 */
export function changesNothing(values: Record<string, unknown>, listing: object): boolean {
  const stored = listing as Record<string, unknown>
  for (const [column, value] of Object.entries(values)) {
    const current = stored[attributeOf(column)]
    // custom_specs is written as JSON text; the row reads back the parsed list.
    const same =
      column === 'custom_specs'
        ? JSON.stringify(JSON.parse(value as string)) === JSON.stringify(current ?? [])
        : (value ?? null) === (current ?? null)
    if (!same) return false
  }
  return true
}
