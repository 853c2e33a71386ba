/*
 * The shape of a JSON body (docs/design.md §19): the members each operation's
 * body may hold, compiled once from the assembled OpenAPI document (whose
 * request schemas are the validators'), and the members of a body that its
 * operation does not define. No HTTP types: the input gate (core/http) refuses
 * a request with such members, and a stock sync rejects a row with them
 * (stored as paths, worded when read).
 */

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
 * that `tree` does not define, each with the defined one it may have meant.
 * Type mismatches are the validator's to report.
 */
export function unknownMembers(
  value: unknown,
  tree: MemberTree,
  prefix = '',
  found: UnknownMember[] = []
): UnknownMember[] {
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
      found.push(unknownMember(prefix + name, tree.known))
      continue
    }
    // Every body is checked: a scalar member (most of them) costs no path string.
    const child = (value as Record<string, unknown>)[name]
    if (child !== null && typeof child === 'object')
      unknownMembers(child, member, `${prefix}${name}.`, found)
  }
  return found
}

/** A member its operation does not define: its path, and the defined one it may have meant (case aside). */
export type UnknownMember = { path: string; meant?: string }

/** `path` (its last name not among `known`), with the defined name it differs from only in case. */
export function unknownMember(path: string, known: readonly string[]): UnknownMember {
  const name = path.slice(path.lastIndexOf('.') + 1).toLowerCase()
  const meant = known.find((candidate) => candidate.toLowerCase() === name)
  return meant ? { path, meant } : { path }
}

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

/** Per operation (`POST /v3/publicaciones/{adminmail}`), its member tree: compiled on first use. */
let compiled: Promise<Map<string, MemberTree>> | null = null

/** Every operation's member tree (the routes must be committed: the document is built from them). */
export function operationMembers() {
  // The trees only: the document is not kept (a few MB the collector would mark on every full collection).
  compiled ??= import('#core/openapi/document').then(async ({ buildOpenApiDocument }) =>
    bodyMembers((await buildOpenApiDocument()) as unknown as Document)
  )
  return compiled
}

/** The members a body of `operation` may hold. */
export async function membersOf(operation: string): Promise<MemberTree> {
  const operations = await operationMembers()
  const tree = operations.get(operation)
  if (!tree) throw new Error(`No request body documented for ${operation}`)
  return tree
}

/** The shape check as a service (a stock sync's rows): the members of `body` that `operation` does not define. */
export default class BodyMembers {
  async unknownIn(operation: string, body: unknown): Promise<UnknownMember[]> {
    return unknownMembers(body, await membersOf(operation))
  }
}
