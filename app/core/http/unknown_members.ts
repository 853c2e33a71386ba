/*
 * Unknown body members (docs/design.md §19): a JSON body member the operation
 * does not define is a 400 keyed by its path, as the document's
 * `additionalProperties: false` says. One rule for every operation, read from
 * the assembled OpenAPI document (whose request schemas are the validators'),
 * so a new operation gets it without code of its own.
 */
import type { ProblemErrors } from './problem.js'
import { MAX_ERROR_KEYS, OMITTED_KEY, addError, errorMap, omittedMessage } from './error_map.js'
import { FORBIDDEN_NAMES, limitMessages } from './input_gate.js'

type Schema = Record<string, any>

/** Resolves `$ref`s and flattens `anyOf`/`oneOf`/`allOf` into the schemas a value may meet. */
function expand(schema: Schema | undefined, components: Record<string, Schema>): Schema[] {
  if (!schema || typeof schema !== 'object') return []
  if (typeof schema.$ref === 'string') {
    return expand(components[schema.$ref.split('/').pop()!], components)
  }
  const branches = [schema.anyOf, schema.oneOf, schema.allOf].filter(Array.isArray).flat()
  return [schema, ...branches.flatMap((branch: Schema) => expand(branch, components))]
}

const allows = (schema: Schema, type: string) =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type))

/**
 * An object schema is closed to members it does not list unless it says
 * otherwise: request schemas say `additionalProperties: false`, and a resource's
 * representation (accepted back on its PUT) is exactly its properties.
 */
const isOpen = (schema: Schema) =>
  (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
  (schema.properties === undefined && schema.patternProperties === undefined)

/** What a body may hold, compiled once per operation from its schemas. */
export type MemberTree = {
  /** An object's members by name; null: not checked here (open, or not an object). */
  members: Map<string, MemberTree> | null
  known: string[]
  items: MemberTree | null
}

const UNCHECKED: MemberTree = { members: null, known: [], items: null }

/** Compiles `schemas` (any of which a value may meet) into the members each level defines. */
export function compileMembers(
  schemas: Schema[],
  components: Record<string, Schema>,
  depth = 0
): MemberTree {
  // Request bodies nest a few levels; a deeper (or recursive) schema is left to the validator.
  if (depth > 16) return UNCHECKED
  const candidates = schemas.flatMap((schema) => expand(schema, components))
  const items = candidates.filter((s) => allows(s, 'array') && s.items).map((s) => s.items)
  const objects = candidates.filter((schema) => allows(schema, 'object') || schema.properties)
  const closed = objects.length > 0 && !objects.some(isOpen)
  const known = closed
    ? [...new Set(objects.flatMap((schema) => Object.keys(schema.properties ?? {})))]
    : []
  const members = closed
    ? new Map(
        known.map((name) => [
          name,
          compileMembers(
            objects
              .filter((schema) => schema.properties && name in schema.properties)
              .map((schema) => schema.properties[name]),
            components,
            depth + 1
          ),
        ])
      )
    : null
  return {
    members,
    known,
    items: items.length ? compileMembers(items, components, depth + 1) : null,
  }
}

/**
 * The paths (`precio`, `Locacion.Calle`, `Fotos.0.x`) of the members of `value`
 * that `tree` does not define. Type mismatches are the validator's to report.
 */
export function unknownMembers(
  value: unknown,
  tree: MemberTree,
  prefix = '',
  found: { path: string; known: string[] }[] = []
): { path: string; known: string[] }[] {
  if (value === null || typeof value !== 'object') return found
  if (Array.isArray(value)) {
    if (tree.items) {
      for (const [index, item] of value.entries()) {
        if (item !== null && typeof item === 'object')
          unknownMembers(item, tree.items, `${prefix}${index}.`, found)
      }
    }
    return found
  }
  if (!tree.members) return found
  for (const name in value) {
    const member = tree.members.get(name)
    if (!member) {
      found.push({ path: prefix + name, known: tree.known })
      continue
    }
    // Every body is checked: a scalar member (most of them) costs no path string.
    const child = (value as Record<string, unknown>)[name]
    if (child !== null && typeof child === 'object')
      unknownMembers(child, member, `${prefix}${name}.`, found)
  }
  return found
}

/**
 * The 400's `Errors`: each unknown member, with the defined one it may have
 * meant (case aside); a forbidden name (`__proto__`…) says so. At most
 * MAX_ERROR_KEYS of them, then how many more.
 */
export function unknownMemberErrors(found: { path: string; known: string[] }[]): ProblemErrors {
  const errors = errorMap()
  for (const { path, known } of found.slice(0, MAX_ERROR_KEYS)) {
    const name = path.slice(path.lastIndexOf('.') + 1)
    if (FORBIDDEN_NAMES.has(name)) {
      addError(errors, path, limitMessages.name(name))
      continue
    }
    const meant = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase())
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

export const UNKNOWN_MEMBERS_DETAIL = 'El cuerpo tiene campos que la operación no define.'

type Operation = { requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Document = { paths: Record<string, Record<string, Operation & Schema>>; components: Schema }

/**
 * Per `METHOD /path` of the document, the schemas a JSON body's members are
 * checked against. A PUT also accepts (and its validator drops) the members of
 * the resource's own representation, the GET of the same path, so a client can
 * GET, change and PUT back; a collection's envelope is not that.
 */
export function bodyMembers(document: Document): Map<string, MemberTree> {
  const components = document.components?.schemas ?? {}
  const out = new Map<string, MemberTree>()
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const schema = operation?.requestBody?.content?.['application/json']?.schema
      if (!schema) continue
      const schemas = [schema]
      if (method === 'put') {
        const own = item.get?.responses?.['200']?.content?.['application/json']?.schema
        const resource = expand(own, components)
        if (resource.length && !resource.some((s) => s.properties?._entries)) schemas.push(own)
      }
      out.set(`${method.toUpperCase()} ${path}`, compileMembers(schemas, components))
    }
  }
  return out
}
