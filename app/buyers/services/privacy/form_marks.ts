/*
 * The marks a buyers' form page kept for replay carries (docs/privacy.md,
 * `idempotency_keys.response_extra`): the e-mail lower-cased and the phone's
 * national number the buyer typed, so a suppression finds the page whatever
 * the case of the e-mail or however the number was written — a 400 page
 * echoes the fields as typed and names no inquiry. Never flashed on replay.
 */
import { emailKey, phoneKey, type MatchKeys } from './matching.js'

/** The member of the kept `extra` that holds the marks. */
export const FORM_MARKS = '_marcas'

/** Longer than any field the form accepts (its own answer is a 400): not worth a mark. */
const MAX_FIELD = 254

const emailMark = (email: string) => `e:${email}`
const phoneMark = (national: string) => `p:${national}`

/** The marks of the fields typed in a buyers' form. */
export function formMarks(fields: { email?: unknown; phone?: unknown }): string[] {
  const marks: string[] = []
  const typed = (value: unknown) =>
    typeof value === 'string' && value.length <= MAX_FIELD ? value : null
  const email = emailKey(typed(fields.email))
  if (email) marks.push(emailMark(email))
  const phone = phoneKey(typed(fields.phone))
  if (phone?.kind === 'national') marks.push(phoneMark(phone.value))
  return marks
}

/**
 * What a suppression looks for in the kept `extra` (as PostgreSQL prints
 * jsonb): each mark as a JSON string, quotes included, so `p:11444412345`
 * is not found by `p:1144441234`. A local phone names nobody alone: no mark.
 */
export function markNeedles(asked: MatchKeys): string[] {
  const marks: string[] = []
  if (asked.email) marks.push(emailMark(asked.email))
  if (asked.phone?.kind === 'national') marks.push(phoneMark(asked.phone.value))
  return marks.map((mark) => JSON.stringify(mark))
}
