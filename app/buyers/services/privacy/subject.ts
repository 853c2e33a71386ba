/*
 * The person a privacy request names (docs/design.md §16), as pure rules:
 * normalising the identifiers for matching, masking them for lists, an HMAC
 * for the audit (no personal data at rest there), and the legal due date.
 */
import { createHmac } from 'node:crypto'
import type { DateTime } from 'luxon'
import type { BuyerKeys } from '#leads/services/buyer_data'

/** Identifiers as the wire gives them (`Email`, `Telefono`, `DocIdentidad`). */
export type Identifiers = { email?: string | null; phone?: string | null; document?: string | null }

export type RequestKind = 'access' | 'erasure'

export const digits = (value: string) => value.replace(/\D/g, '')

/** The shortest identity document accepted, in digits. */
export const DOCUMENT_MIN_DIGITS = 6

/** Matching keys: e-mail lower-cased, phone and document as digits. */
export function normalise(who: Identifiers): BuyerKeys {
  return {
    email: who.email ? who.email.trim().toLowerCase() : null,
    phoneDigits: who.phone ? digits(who.phone) : null,
    documentDigits: who.document ? digits(who.document) : null,
  }
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
export function subjectHmac(keys: BuyerKeys, key: string): string {
  const canonical = JSON.stringify([
    keys.email ?? null,
    keys.phoneDigits ?? null,
    keys.documentDigits ?? null,
  ])
  return createHmac('sha256', key).update(canonical).digest('hex')
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
