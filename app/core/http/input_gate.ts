/*
 * The input gate (docs/design.md §13): every path parameter, query value, body
 * string (at any depth, keys included) and form field is text without NUL,
 * unpaired surrogates or U+FFFD (what invalid UTF-8 decodes to), and numbers
 * are finite; path ids fit their int4 column. Checked once, before any
 * handler or query runs. Clean input (the common case) costs one regex test
 * per string and no allocation.
 */
import { Problem, type ProblemErrors } from './problem.js'
import {
  FORBIDDEN_NAMES,
  MAX_ERROR_KEYS,
  OMITTED_KEY,
  addError,
  echoedName,
  omittedMessage,
} from './error_map.js'

export const INT4_MAX = 2_147_483_647

/** Path parameters that are serial (int4) ids: beyond the column → 404. */
const ID_PARAMS = new Set(['id', 'listing'])

/** Bodies nest a few levels; deeper ones are refused before anything walks them (levels = open objects and lists). */
export const MAX_DEPTH = 32

/** Members of one object a body may hold; none of the service's objects comes near. */
export const MAX_MEMBERS = 200

export { FORBIDDEN_NAMES }

// With the `u` flag a surrogate range matches only unpaired surrogates.
// eslint-disable-next-line no-control-regex -- NUL is exactly what the gate refuses
const BAD_TEXT = /[\u0000\ufffd]|[\ud800-\udfff]/u

const messages = {
  nul: (key: string) => `El campo ${key} contiene el carácter nulo (U+0000), que no se admite.`,
  text: (key: string) => `El campo ${key} no es texto UTF-8 válido.`,
  range: (key: string) => `El campo ${key} está fuera de rango.`,
  encoding: (key: string) => `El campo ${key} tiene una codificación porcentual inválida.`,
  depth: () => `El cuerpo tiene más de ${MAX_DEPTH} niveles de anidamiento.`,
  members: (key: string) =>
    `${key ? `El objeto ${key}` : 'El cuerpo'} tiene más de ${MAX_MEMBERS} campos.`,
  name: (name: string) => `El nombre ${name} no se admite como campo.`,
}

/** Wording of the parse-time limits, shared with the streamed readers (a stock sync's body). */
export const limitMessages = {
  depth: messages.depth,
  members: messages.members,
  name: messages.name,
}

/** True when a string is acceptable text. */
export function isCleanText(value: string): boolean {
  return !BAD_TEXT.test(value)
}

/** The message for a value whose bytes are not UTF-8 (a bad percent-escape in a path). */
export function notUtf8(key: string): string {
  return messages.text(key)
}

function textProblem(value: string, key: string): string {
  return value.includes('\u0000') ? messages.nul(key) : messages.text(key)
}

type Walk = { errors: ProblemErrors; names: boolean; keys: number; omitted: number }

function add(walk: Walk, key: string, message: string) {
  if (!Object.hasOwn(walk.errors, key)) {
    // Bounded: past MAX_ERROR_KEYS keys, only counted.
    if (walk.keys >= MAX_ERROR_KEYS) {
      walk.omitted++
      return
    }
    walk.keys++
  }
  addError(walk.errors, key, message)
}

/**
 * Fast pass: is every string, key and number of `value` clean, and its shape
 * within the limits? `depth` counts the objects and lists around `value`.
 * Linear in the value: it stops at the first offence.
 */
function clean(value: unknown, depth: number, names: boolean): boolean {
  if (typeof value === 'string') return !BAD_TEXT.test(value)
  if (typeof value === 'number') return Number.isFinite(value)
  if (value === null || typeof value !== 'object') return true
  if (depth >= MAX_DEPTH) return false
  if (Array.isArray(value)) {
    for (const item of value) if (!clean(item, depth + 1, names)) return false
    return true
  }
  let members = 0
  for (const key in value) {
    if (
      ++members > MAX_MEMBERS ||
      (names && FORBIDDEN_NAMES.has(key)) ||
      BAD_TEXT.test(key) ||
      !clean((value as Record<string, unknown>)[key], depth + 1, names)
    )
      return false
  }
  return true
}

/** Slow pass, only on input the fast pass refused: the wire key of every offence (bounded). */
function collect(value: unknown, key: string, depth: number, walk: Walk) {
  if (typeof value === 'string') {
    if (BAD_TEXT.test(value)) add(walk, key || '_', textProblem(value, key || 'cuerpo'))
    return
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) add(walk, key || '_', messages.range(key || 'cuerpo'))
    return
  }
  if (value === null || typeof value !== 'object') return
  if (depth >= MAX_DEPTH) {
    add(walk, '_', messages.depth())
    return
  }
  const prefix = key ? `${key}.` : ''
  if (Array.isArray(value)) {
    value.forEach((item, index) => collect(item, `${prefix}${index}`, depth + 1, walk))
    return
  }
  let members = 0
  for (const _ in value) {
    if (++members > MAX_MEMBERS) {
      // Its members are not looked at one by one: the object is refused as a whole.
      add(walk, key || '_', messages.members(key))
      return
    }
  }
  for (const name in value) {
    const child = `${prefix}${name}`
    if (walk.names && FORBIDDEN_NAMES.has(name)) {
      add(walk, child, messages.name(name))
      continue
    }
    if (BAD_TEXT.test(name)) add(walk, child, textProblem(name, child))
    collect((value as Record<string, unknown>)[name], child, depth + 1, walk)
  }
}

/**
 * Checks a parsed structure (query object, JSON or form body) into `errors`:
 * text, numbers, nesting, members per object and, unless `names` is false (a
 * stock sync's row, whose own result names them), the forbidden member names.
 */
export function checkValues(
  value: unknown,
  errors: ProblemErrors,
  prefix = '',
  { names = true }: { names?: boolean } = {}
) {
  if (clean(value, 0, names)) return
  const walk: Walk = { errors, names, keys: Object.keys(errors).length, omitted: 0 }
  collect(value, prefix, 0, walk)
  if (walk.omitted > 0) addError(errors, OMITTED_KEY, omittedMessage(walk.omitted))
}

/**
 * `application/x-www-form-urlencoded` text (a query string or a form body)
 * whose percent-escapes are not UTF-8: the parser keeps such values as
 * literal `%..` text, so they are caught on the raw string.
 */
export function checkPercentEncoding(rawText: string, errors: ProblemErrors) {
  if (!rawText.includes('%')) return
  for (const pair of rawText.split('&')) {
    if (!pair.includes('%')) continue
    const equals = pair.indexOf('=')
    const rawKey = equals === -1 ? pair : pair.slice(0, equals)
    try {
      decodeURIComponent(pair.replaceAll('+', ' ').replace('=', ''))
    } catch {
      const key = lenientDecode(rawKey) || '_'
      addError(errors, key, messages.encoding(key))
    }
  }
}

/**
 * The forbidden member names in `application/x-www-form-urlencoded` text (a
 * form body): the form parser drops `__proto__`, `constructor[…]` and their
 * bracket forms (`Nombre[__proto__]`) silently, so they are read from the raw
 * text, each name decoded as the parser decodes it (`+` → space, percent
 * escapes) and cut at `[`, `]` and `.` as it cuts them. Keyed by the path up
 * to the forbidden name (`Nombre.__proto__`). One pass; clean text costs a regex test.
 */
export function checkFormNames(rawText: string, errors: ProblemErrors) {
  if (!MAY_NAME_FORBIDDEN.test(rawText)) return
  for (const pair of rawText.split('&')) {
    const equals = pair.indexOf('=')
    const name = lenientDecode(equals === -1 ? pair : pair.slice(0, equals))
    const segments = name.split(/[[\].]+/).filter(Boolean)
    const at = segments.findIndex((segment) => FORBIDDEN_NAMES.has(segment))
    if (at === -1) continue
    const key = echoedName(segments.slice(0, at + 1).join('.'))
    if (!Object.hasOwn(errors, key)) addError(errors, key, messages.name(segments[at]))
  }
}

/** Text that may name a forbidden member, possibly percent-encoded. */
const MAY_NAME_FORBIDDEN = /__proto__|constructor|prototype|%/i

function lenientDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '))
  } catch {
    return value
  }
}

/** Fast pass over path parameters: nothing to report, nothing allocated. */
export function pathParamsClean(params: Record<string, unknown>): boolean {
  for (const name in params) {
    const value = params[name]
    if (typeof value === 'string') {
      if (BAD_TEXT.test(value) || (ID_PARAMS.has(name) && beyondInt4(value))) return false
    } else if (typeof value === 'number' && ID_PARAMS.has(name) && !(value <= INT4_MAX)) {
      return false
    }
  }
  return true
}

/**
 * Path parameters: text rules keyed `_path.<name>`; a serial id beyond int4
 * throws 404 (no row can have it).
 */
export function checkPathParams(params: Record<string, unknown>, errors: ProblemErrors) {
  for (const name in params) {
    const value = params[name]
    if (typeof value === 'string') {
      if (BAD_TEXT.test(value)) addError(errors, `_path.${name}`, textProblem(value, name))
      else if (ID_PARAMS.has(name) && beyondInt4(value)) throw Problem.notFound()
    } else if (typeof value === 'number' && ID_PARAMS.has(name) && !(value <= INT4_MAX)) {
      throw Problem.notFound()
    }
  }
}

function beyondInt4(value: string): boolean {
  if (value.length < 10 || !/^\d+$/.test(value)) return false
  return value.replace(/^0+/, '').length > 10 || Number(value) > INT4_MAX
}

export const GATE_DETAIL = 'Uno o más valores no son texto válido o están fuera de rango.'
