/*
 * A JSON body's shape, checked on its text before JSON.parse builds it
 * (docs/design.md §25: every parser of a request body does work linear in the
 * bytes it reads and refuses early). JSON.parse of 1 MiB holding ~96 000
 * members of one object builds a dictionary that held the event loop for
 * seconds under the production heap (issue 33): nesting past MAX_DEPTH and
 * objects past MAX_MEMBERS are refused here instead, in one pass over the
 * characters that allocates nothing per member.
 */
import { MAX_DEPTH, MAX_MEMBERS, limitMessages } from './input_gate.js'
import { Problem } from './problem.js'
import { addError, echoedName, errorMap } from './error_map.js'

/**
 * The JSON media types. The body parser reads them as text (config/bodyparser.ts:
 * its own JSON parser would build the body before anything could look at it);
 * the input gate parses them with `parseJsonBody`.
 */
export const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'text/json',
  'application/vnd.service.entry+json',
]

/** A body must be an object or a list (the body parser's `strict`). */
const OBJECT_OR_LIST = /^[ \t\n\r]*[[{]/

/** Strings as the body parser's JSON parser gave them (its default `trimWhitespaces`). */
function trimmed(_key: string, value: unknown) {
  return typeof value === 'string' ? value.trim() : value
}

/**
 * A JSON body's text → its value, refused (400) when its shape breaks a limit
 * before JSON.parse runs. Parsed as sent: a member named `__proto__` is an own
 * member the gate then refuses by name (the body parser's parser dropped it).
 */
export function parseJsonBody(text: string): unknown {
  if (!text) return {}
  if (!OBJECT_OR_LIST.test(text)) refuse('_', 'El cuerpo debe ser un objeto o una lista JSON.')
  const offence = jsonShapeOffence(text)
  if (offence?.kind === 'depth') refuse('_', limitMessages.depth())
  if (offence?.kind === 'members') refuse(offence.path || '_', limitMessages.members(offence.path))
  try {
    return JSON.parse(text, trimmed)
  } catch {
    return refuse('_', 'El cuerpo no es JSON válido.')
  }
}

function refuse(key: string, detail: string): never {
  const errors = errorMap()
  addError(errors, key, detail)
  throw Problem.badRequest(errors, detail)
}

export type ShapeOffence = { kind: 'depth' } | { kind: 'members'; path: string }

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_LIST = 0x5b
const CLOSE_LIST = 0x5d
const COMMA = 0x2c

// Per open level (1 = the body itself); reused: one scan at a time (synchronous).
const isObject: boolean[] = new Array(MAX_DEPTH + 1).fill(false)
const awaitingName: boolean[] = new Array(MAX_DEPTH + 1).fill(false)
/** Members seen (objects) or the index of the current item (lists). */
const count: number[] = new Array(MAX_DEPTH + 1).fill(0)
/** Where the current member's quoted name starts and ends in the text. */
const nameStart: number[] = new Array(MAX_DEPTH + 1).fill(0)
const nameEnd: number[] = new Array(MAX_DEPTH + 1).fill(0)

/**
 * The first shape limit `text` breaks, or null. Lenient about syntax (invalid
 * JSON is JSON.parse's to refuse afterwards): it only tracks strings (with
 * their escapes), brackets and commas.
 */
export function jsonShapeOffence(text: string): ShapeOffence | null {
  let depth = 0
  const length = text.length
  for (let at = 0; at < length; at++) {
    const char = text.charCodeAt(at)
    if (char === QUOTE) {
      const start = at
      for (at++; at < length; at++) {
        const inner = text.charCodeAt(at)
        if (inner === BACKSLASH) at++
        else if (inner === QUOTE) break
      }
      if (depth > 0 && isObject[depth] && awaitingName[depth]) {
        awaitingName[depth] = false
        nameStart[depth] = start
        nameEnd[depth] = at + 1
        if (++count[depth] > MAX_MEMBERS) return { kind: 'members', path: pathTo(text, depth) }
      }
    } else if (char === OPEN_OBJECT || char === OPEN_LIST) {
      if (++depth > MAX_DEPTH) return { kind: 'depth' }
      isObject[depth] = char === OPEN_OBJECT
      awaitingName[depth] = char === OPEN_OBJECT
      count[depth] = 0
    } else if (char === CLOSE_OBJECT || char === CLOSE_LIST) {
      if (depth > 0) depth--
    } else if (char === COMMA && depth > 0) {
      if (isObject[depth]) awaitingName[depth] = true
      else count[depth]++
    }
  }
  return null
}

/** The wire path (`Publicaciones.0`) of the object open at `depth`; '' for the body itself. */
function pathTo(text: string, depth: number): string {
  const parts: string[] = []
  for (let level = 1; level < depth; level++) {
    parts.push(isObject[level] ? nameAt(text, level) : String(count[level]))
  }
  return echoedName(parts.join('.'))
}

function nameAt(text: string, level: number): string {
  const quoted = text.slice(nameStart[level], nameEnd[level])
  try {
    return JSON.parse(quoted)
  } catch {
    return quoted.slice(1, -1)
  }
}
