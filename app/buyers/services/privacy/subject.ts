/*
 * The person a privacy request names (docs/design.md §16), as pure rules:
 * normalising the identifiers for matching, masking them for lists, an HMAC
 * for the audit (no personal data at rest there), and the legal due date.
 */
import { createHmac } from 'node:crypto'
import type { DateTime } from 'luxon'
import { digits, matchKeys, type MatchKeys } from './matching.js'

/** Identifiers as the wire gives them (`Email`, `Telefono`, `DocIdentidad`). */
export type Identifiers = { email?: string | null; phone?: string | null; document?: string | null }

export type RequestKind = 'access' | 'erasure'

export { digits, DOCUMENT_MIN_DIGITS, PHONE_MIN_DIGITS } from './matching.js'

/** Matching keys (matching.ts): e-mail lower-cased, the phone's national number, the document's key. */
export function normalise(who: Identifiers): MatchKeys {
  return matchKeys(who)
}

/** `j***@example.com`: the first character and the domain. */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return null
  const at = email.lastIndexOf('@')
  if (at < 1) return '***'
  return `${email[0]}***${email.slice(at)}`
}

/** `***4567`: the last four digits. */
export function maskDigits(value: string | null | undefined): string | null {
  if (!value) return null
  return `***${digits(value).slice(-4)}`
}

export function masked(who: Identifiers) {
  return {
    email: maskEmail(who.email?.trim().toLowerCase()),
    phone: maskDigits(who.phone),
    document: maskDigits(who.document),
  }
}

/**
 * HMAC-SHA256 (hex) of the normalised identifiers under `key` (APP_KEY): the
 * same person gives the same value, and nothing of them can be read back.
 */
export function subjectHmac(keys: MatchKeys, key: string): string {
  const canonical = JSON.stringify([keys.email, phoneValue(keys), keys.document])
  return createHmac('sha256', key).update(canonical).digest('hex')
}

const phoneValue = (keys: MatchKeys) =>
  keys.phone ? `${keys.phone.kind === 'local' ? 'local:' : ''}${keys.phone.value}` : null

/**
 * One HMAC per identifier that names the person alone (the e-mail, a national
 * phone, the document): an access export keeps them, and a later suppression
 * naming any of them purges it (docs/design.md §24). A local phone names
 * nobody alone: left out.
 */
export function identifierHmacs(keys: MatchKeys, key: string): string[] {
  const named = [
    keys.email ? `e:${keys.email}` : null,
    keys.phone?.kind === 'national' ? `p:${keys.phone.value}` : null,
    keys.document ? `d:${keys.document}` : null,
  ].filter((value): value is string => value !== null)
  return named.map((value) => createHmac('sha256', key).update(value).digest('hex'))
}

/**
 * The legal due date: access 10 calendar days after reception (Ley 25.326
 * art. 14.2), suppression 5 business days, Monday to Friday (art. 16.2), in
 * the service's zone.
 */
export function dueDate(kind: RequestKind, received: DateTime): DateTime {
  if (kind === 'access') return received.plus({ days: 10 })
  let due = received
  let left = 5
  while (left > 0) {
    due = due.plus({ days: 1 })
    if (due.weekday <= 5) left--
  }
  return due
}
