/*
 * Unknown body members in the wire's words (docs/design.md §19): a JSON body
 * member the operation does not define is a 400 keyed by its path, as the
 * document's `additionalProperties: false` says. Which members those are is
 * core's (#core/services/body_members); this says them.
 */
import type { ProblemErrors } from './problem.js'
import type { UnknownMember } from '#core/services/body_members'
import { MAX_ERROR_KEYS, OMITTED_KEY, addError, errorMap, omittedMessage } from './error_map.js'
import { FORBIDDEN_NAMES, limitMessages } from './input_gate.js'

/**
 * The 400's `Errors`: each unknown member, with the defined one it may have
 * meant (case aside); a forbidden name (`__proto__`…) says so. At most
 * MAX_ERROR_KEYS of them, then how many more.
 */
export function unknownMemberErrors(found: readonly UnknownMember[]): ProblemErrors {
  const errors = errorMap()
  // Forbidden names first: a body that hides `__proto__` behind 50 unknown members still shows it.
  const forbidden = found.filter(({ path }) => FORBIDDEN_NAMES.has(lastName(path)))
  const listed = [...forbidden, ...found.filter((member) => !forbidden.includes(member))]
  for (const { path, meant } of listed.slice(0, MAX_ERROR_KEYS)) {
    const name = lastName(path)
    if (FORBIDDEN_NAMES.has(name)) {
      addError(errors, path, limitMessages.name(name))
      continue
    }
    addError(
      errors,
      path,
      `El campo ${path} no existe en esta operación` +
        (meant ? `; ¿quiso decir ${meant}? (los nombres distinguen mayúsculas)` : '.')
    )
  }
  if (found.length > MAX_ERROR_KEYS) {
    addError(errors, OMITTED_KEY, omittedMessage(found.length - MAX_ERROR_KEYS))
  }
  return errors
}

function lastName(path: string) {
  return path.slice(path.lastIndexOf('.') + 1)
}

export const UNKNOWN_MEMBERS_DETAIL = 'El cuerpo tiene campos que la operación no define.'
