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
 * `errors` with at most MAX_ERROR_KEYS keys (in their order) and, past them,
 * the count of the rest. A map already capped where it was built passes as is.
 */
export function capErrors(errors: ProblemErrors): ProblemErrors {
  const keys = Object.keys(errors).filter((key) => key !== OMITTED_KEY)
  if (keys.length <= MAX_ERROR_KEYS) return errors
  const capped = errorMap()
  // No prototype: assigning `__proto__` here makes a key.
  for (const key of keys.slice(0, MAX_ERROR_KEYS)) capped[key] = errors[key]
  capped[OMITTED_KEY] = [omittedMessage(keys.length - MAX_ERROR_KEYS)]
  return capped
}
