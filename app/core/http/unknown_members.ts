/*
 * Unknown body members (docs/design.md §19): a JSON body member the operation
 * does not define is a 400 keyed by its path, as the document's
 * `additionalProperties: false` says. One rule for every operation, read from
 * the assembled OpenAPI document (whose request schemas are the validators'),
 * so a new operation gets it without code of its own.
 */
import type { ProblemErrors } from './problem.js'

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

/**
 * The paths (`precio`, `Locacion.Calle`, `Fotos.0.x`) of the members of `value`
 * that none of `schemas` defines. Type mismatches are the validator's to report.
 */
export function unknownMembers(
  value: unknown,
  schemas: Schema[],
  components: Record<string, Schema>,
  prefix = ''
): { path: string; known: string[] }[] {
  if (value === null || typeof value !== 'object') return []
  const candidates = schemas.flatMap((schema) => expand(schema, components))
  const found: { path: string; known: string[] }[] = []
  if (Array.isArray(value)) {
    const items = candidates.filter((s) => allows(s, 'array') && s.items).map((s) => s.items)
    if (items.length === 0) return []
    value.forEach((item, index) =>
      found.push(...unknownMembers(item, items, components, `${prefix}${index}.`))
    )
    return found
  }
  const objects = candidates.filter((schema) => allows(schema, 'object') || schema.properties)
  if (objects.length === 0 || objects.some(isOpen)) return []
  const known = [...new Set(objects.flatMap((schema) => Object.keys(schema.properties ?? {})))]
  for (const [name, member] of Object.entries(value)) {
    const defining = objects.filter((schema) => schema.properties && name in schema.properties)
    if (defining.length === 0) {
      found.push({ path: prefix + name, known })
      continue
    }
    found.push(
      ...unknownMembers(
        member,
        defining.map((schema) => schema.properties[name]),
        components,
        `${prefix}${name}.`
      )
    )
  }
  return found
}

/** The 400's `Errors`: each unknown member, with the defined one it may have meant (case aside). */
export function unknownMemberErrors(found: { path: string; known: string[] }[]): ProblemErrors {
  const errors: ProblemErrors = {}
  for (const { path, known } of found) {
    const name = path.split('.').pop()!
    const meant = known.find((candidate) => candidate.toLowerCase() === name.toLowerCase())
    errors[path] = [
      `El campo ${path} no existe en esta operación` +
        (meant ? `; ¿quiso decir ${meant}? (los nombres distinguen mayúsculas)` : '.'),
    ]
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
export function bodySchemas(document: Document): Map<string, Schema[]> {
  const components = document.components?.schemas ?? {}
  const out = new Map<string, Schema[]>()
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
      out.set(`${method.toUpperCase()} ${path}`, schemas)
    }
  }
  return out
}
