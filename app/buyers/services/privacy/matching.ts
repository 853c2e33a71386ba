/*
 * Which inquiries a privacy request names (docs/design.md §25 "A buyer's
 * request matches that buyer"), as pure rules: the e-mail case-insensitively;
 * a document by its digits, a CUIT by the DNI inside it; a phone as an
 * Argentine national number (area code + subscriber, 10 digits). A stored
 * number too short to carry an area code names the person only beside an
 * e-mail or document that does. The leads module finds the candidates by
 * index (`phoneEndings`, `documentKey`); these rules decide.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js'

export const digits = (value: string) => value.replace(/\D/g, '')

/** The fewest digits of a phone or a document that can name anybody. */
export const PHONE_MIN_DIGITS = 6
export const DOCUMENT_MIN_DIGITS = 6

/**
 * A phone as matching sees it: `national`, a number with its area code
 * (Argentine: the 10-digit national number; another country's: `+` code and
 * number), which names a person alone; `local`, the subscriber number only
 * (7–8 digits, `15-4444-1234`), which needs an e-mail or document beside it.
 * `ending`: the digits every written form of the number ends with.
 */
export type PhoneKey =
  { kind: 'national'; value: string; ending: string } | { kind: 'local'; value: string }

/** Argentine national numbers have 10 digits; mobiles are dialled with a 9 (or 15) that is not part of them. */
const NATIONAL_DIGITS = 10

export function phoneKey(raw: string | null | undefined): PhoneKey | null {
  if (!raw) return null
  const all = digits(raw)
  if (all.length < PHONE_MIN_DIGITS) return null
  const parsed = parsePhoneNumberFromString(raw, 'AR')
  if (parsed?.isValid()) {
    let national = String(parsed.nationalNumber)
    if (parsed.countryCallingCode !== '54')
      return {
        kind: 'national',
        value: `+${parsed.countryCallingCode}${national}`,
        ending: national,
      }
    // libphonenumber keeps the mobile 9 (`+54 9 11 …`, `011 15 …` → 91144441234).
    if (national.length === NATIONAL_DIGITS + 1 && national.startsWith('9'))
      national = national.slice(1)
    if (national.length === NATIONAL_DIGITS)
      return { kind: 'national', value: national, ending: national }
  }
  // No area code: the subscriber number, without the mobile 15 before it.
  if (all.length <= 8) return { kind: 'local', value: all }
  if (all.startsWith('15') && all.length <= 10) return { kind: 'local', value: all.slice(2) }
  // Something longer that is no valid number: only the same digits name it.
  return { kind: 'national', value: all, ending: all }
}

/**
 * The digit endings a stored form of the national number `key` has: the
 * number itself (`+54 9 11 4444-1234`, `011 4444-1234`) and, for an Argentine
 * one, the number with the mobile 15 after an area code of 2, 3 or 4 digits
 * (`011 15 4444-1234`). Candidates only: `phonesMatch` decides.
 */
export function phoneEndings(key: PhoneKey | null): string[] {
  if (!key || key.kind !== 'national') return []
  const endings = [key.ending]
  if (/^\d{10}$/.test(key.value) && key.value === key.ending)
    for (const area of [2, 3, 4])
      endings.push(`${key.value.slice(0, area)}15${key.value.slice(area)}`)
  return endings
}

/**
 * How two phones agree: `full` (equal national numbers: names the person),
 * `local` (a subscriber number that ends the other, or equals it: only beside
 * an e-mail or document), or null.
 */
export function phonesMatch(a: PhoneKey | null, b: PhoneKey | null): 'full' | 'local' | null {
  if (!a || !b) return null
  if (a.kind === 'national' && b.kind === 'national') return a.value === b.value ? 'full' : null
  if (a.kind === 'local' && b.kind === 'local') return a.value === b.value ? 'local' : null
  const national = a.kind === 'national' ? a : b.kind === 'national' ? b : null
  const local = a.kind === 'local' ? a : b
  return national && national.ending.endsWith(local.value) ? 'local' : null
}

/**
 * A document's key: its digits, a CUIT/CUIL (11 digits) by the DNI inside it
 * (digits 3–10), leading zeros dropped (a 7-digit DNI is written 0 in a CUIT).
 * Null under 6 digits. `InquiryStore.findBuyer` computes the same in SQL for
 * the stored side (index `inquiries_buyer_document_key`).
 */
export function documentKey(raw: string | null | undefined): string | null {
  if (!raw) return null
  let all = digits(raw)
  if (all.length === 11) all = all.slice(2, 10)
  all = all.replace(/^0+/, '')
  return all.length >= DOCUMENT_MIN_DIGITS ? all : null
}

/** A request's identifiers, normalised for matching. */
export type MatchKeys = {
  email: string | null
  phone: PhoneKey | null
  document: string | null
}

export const emailKey = (raw: string | null | undefined) =>
  raw && raw.trim() ? raw.trim().toLowerCase() : null

export function matchKeys(who: {
  email?: string | null
  phone?: string | null
  document?: string | null
}): MatchKeys {
  return {
    email: emailKey(who.email),
    phone: phoneKey(who.phone),
    document: documentKey(who.document),
  }
}

/** Which identifier of the request an inquiry matched, as the export names it. */
export type Coincidence = 'Email' | 'Telefono' | 'DocIdentidad'

/**
 * The identifiers of the request that the stored inquiry matches, or [] when
 * it does not name the person: an e-mail, a document or a full phone match
 * names them; a local phone match only counts beside one of the first two.
 */
export function coincidence(
  asked: MatchKeys,
  stored: { email: string | null; phone: string | null; documentId: string | null }
): Coincidence[] {
  const email = asked.email !== null && asked.email === emailKey(stored.email)
  const document = asked.document !== null && asked.document === documentKey(stored.documentId)
  const phone = phonesMatch(asked.phone, phoneKey(stored.phone))
  const named = email || document || phone === 'full'
  if (!named) return []
  const found: Coincidence[] = []
  if (email) found.push('Email')
  if (phone) found.push('Telefono')
  if (document) found.push('DocIdentidad')
  return found
}

/**
 * What the request may use to find candidates: a local phone finds none of
 * its own (it only names the person beside an e-mail or document).
 */
export function searchKeys(asked: MatchKeys) {
  return {
    email: asked.email,
    documentKey: asked.document,
    phoneEndings: phoneEndings(asked.phone),
  }
}

/** Whether the identifiers can name anybody: a local phone alone cannot. */
export function namesSomebody(asked: MatchKeys) {
  return Boolean(asked.email || asked.document || asked.phone?.kind === 'national')
}
