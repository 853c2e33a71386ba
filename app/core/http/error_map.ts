/*
 * `Errors` maps (docs/design.md §25): built without a prototype, so a member
 * named `__proto__` is a key like any other (on a plain object, assigning it
 * would replace the map's prototype and the error would vanish), and bounded:
 * at most MAX_ERROR_KEYS keys, then one `_omitidos` key saying how many more.
 */
import type { ProblemErrors } from './problem.js'

/** Keys an `Errors` map lists; beyond them it says how many more there were. */
export const MAX_ERROR_KEYS = 50

/** The key that counts the keys left out. */
export const OMITTED_KEY = '_omitidos'

/** Member names that reach an object's prototype in JavaScript: refused in every body. */
export const FORBIDDEN_NAMES: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
])

/** An empty `Errors` map without a prototype. */
export function errorMap(): ProblemErrors {
  return Object.create(null)
}

/** Adds `message` under `key`, whatever the key's name. */
export function addError(errors: ProblemErrors, key: string, message: string) {
  if (Object.hasOwn(errors, key)) errors[key].push(message)
  else Object.defineProperty(errors, key, { value: [message], enumerable: true, writable: true })
}

/** Characters of a member name or path an answer repeats; a longer one is cut (a 1 MiB name is not echoed twice). */
export const ECHOED_NAME_CHARS = 64

/** `name` as an `Errors` key or a message repeats it: its first ECHOED_NAME_CHARS characters, then `…`. */
export function echoedName(name: string): string {
  if (name.length <= ECHOED_NAME_CHARS) return name
  // Not between the halves of a surrogate pair.
  const high = name.charCodeAt(ECHOED_NAME_CHARS - 1)
  const end = high >= 0xd800 && high <= 0xdbff ? ECHOED_NAME_CHARS - 1 : ECHOED_NAME_CHARS
  return `${name.slice(0, end)}…`
}

export function omittedMessage(count: number): string {
  return count === 1
    ? 'Hay 1 campo más con errores que no se lista.'
    : `Hay ${count} campos más con errores que no se listan.`
}

/**
 * `errors` as an answer lists it: at most MAX_ERROR_KEYS keys and, past them,
 * the count of the rest; the keys naming a forbidden member (`__proto__`, …)
 * first, so that a crowd of other errors cannot hide them; a key longer than
 * ECHOED_NAME_CHARS cut, in its messages too. A map within all that passes as is.
 */
export function capErrors(errors: ProblemErrors): ProblemErrors {
  const keys = Object.keys(errors).filter((key) => key !== OMITTED_KEY)
  const long = keys.some((key) => key.length > ECHOED_NAME_CHARS)
  if (keys.length <= MAX_ERROR_KEYS && !long) return errors
  const forbidden = keys.filter(namesForbidden)
  const ordered =
    keys.length > MAX_ERROR_KEYS && forbidden.length > 0
      ? [...forbidden, ...keys.filter((key) => !namesForbidden(key))]
      : keys
  const capped = errorMap()
  // No prototype: assigning `__proto__` here makes a key.
  for (const key of ordered.slice(0, MAX_ERROR_KEYS)) {
    const shown = echoedName(key)
    const messages = shown === key ? errors[key] : errors[key].map((m) => m.replaceAll(key, shown))
    if (Object.hasOwn(capped, shown)) capped[shown].push(...messages)
    else capped[shown] = messages
  }
  const omitted =
    Math.max(0, keys.length - MAX_ERROR_KEYS) + omittedCount(errors[OMITTED_KEY] ?? null)
  if (omitted > 0) capped[OMITTED_KEY] = [omittedMessage(omitted)]
  return capped
}

/** A key whose last member is a forbidden name (`Locacion.__proto__`). */
function namesForbidden(key: string): boolean {
  return FORBIDDEN_NAMES.has(key.slice(key.lastIndexOf('.') + 1))
}

/** How many keys an existing `_omitidos` message counts. */
function omittedCount(messages: string[] | null): number {
  const counted = messages?.[0]?.match(/\d+/)
  return counted ? Number(counted[0]) : 0
}
