/*
 * What a module says about its operations (beside its routes.ts) and the small
 * builders that keep it short: shared problem responses, negotiated bodies,
 * parameters and request bodies derived from the Vine validators.
 */
import { named } from './schema.js'
import { ProblemSchema, ReferenceSchema } from './wire.js'

type JsonSchema = Record<string, any>

/** Anything Vine can describe: a compiled validator or a schema type. */
export type Describable = { toJSONSchema(): object }

export type Parameter = {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  description: string
  schema: unknown
  /** Checked by a validator: a malformed value is a 400 naming it. */
  validated?: boolean
}

export type Operation = {
  /** camelCase English, the method name of generated clients. */
  operationId: string
  tag: string
  summary: string
  description: string
  /** Path parameters this operation describes itself (others come from the module or core). */
  params?: Record<string, Parameter>
  /** Query and header parameters. */
  parameters?: Parameter[]
  requestBody?: unknown
  responses: Record<string, unknown>
  /** Problem statuses besides 401 and 429, which every secured operation has. */
  problems?: number[]
  /** `open` for routes without credentials. */
  security?: never[]
  /** A POST registered with `apiRoutes(…, { idempotent: false })`: no Idempotency-Key. */
  idempotent?: false
}

export type OpenApiFragment = {
  tags?: { name: string; description: string }[]
  /** Keyed by `METHOD pattern` as registered, e.g. `GET /v3/agencias/:adminmail`. */
  operations: Record<string, Operation>
  /** Path parameters shared by the module's operations. */
  params?: Record<string, Parameter>
  /** Schemas not reachable from an operation through `named` (rare). */
  schemas?: Record<string, unknown>
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })

const PROBLEM_TEXT: Record<number, string> = {
  400: 'Validación fallida',
  401: 'Credenciales ausentes o inválidas',
  403: 'Operación no permitida',
  404: 'No existe para la aplicación',
  405: 'Método no permitido',
  406: 'Representación no disponible',
  408: 'El cuerpo dejó de llegar antes de completarse',
  409: 'Conflicto',
  410: 'Ya no disponible',
  412: 'El ETag no coincide',
  413: 'Cuerpo mayor a 1 MiB',
  415: 'El cuerpo no es JSON',
  422: 'Idempotency-Key repetida con otro cuerpo',
  429: 'Límite de solicitudes superado',
}

/** Problem documents (RFC 9457) for the given statuses. */
export function problems(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      String(status),
      {
        description: PROBLEM_TEXT[status] ?? 'Error',
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ])
  )
}

/** For operations that define no 4xx of their own: what the input gate rejects. */
export const clientError = {
  '4XX': {
    description: 'Solicitud rechazada antes de la operación (p. ej. URL o encabezados inválidos)',
    content: { 'application/problem+json': { schema: ProblemSchema } },
  },
}

const VARY = { description: 'Accept', schema: { type: 'string' } }

/** A 2xx response in both representations (docs/design.md §4). */
export function negotiated(
  description: string,
  full: unknown,
  reference: unknown = ReferenceSchema,
  headers: Record<string, unknown> = {}
) {
  return {
    description,
    headers: { Vary: VARY, ...headers },
    content: {
      'application/json': { schema: full },
      'application/vnd.service.entry+json': { schema: full },
      'text/json': { schema: full },
      'application/vnd.service.ref+json': { schema: reference },
    },
  }
}

export const header = (
  description: string,
  schema: unknown = { type: 'string' },
  required = false
) => ({ description, required, schema })

export const etagHeader = header('ETag fuerte de la representación')
export const locationHeader = header(
  'URL del recurso',
  { type: 'string', format: 'uri-reference' },
  true
)

/** 304 to a matching `If-None-Match`: no body, the current `ETag`. */
export const notModified = {
  description: 'Sin cambios respecto del ETag enviado',
  headers: { ETag: header('ETag fuerte de la representación', { type: 'string' }, true) },
}

export function jsonBody(schema: unknown, required = true) {
  return { required, content: { 'application/json': { schema } } }
}

/** The JSON Schema of a Vine validator or schema type, as the document publishes it. */
export function schemaOf(source: Describable): JsonSchema {
  return structuredClone(source.toJSONSchema()) as JsonSchema
}

/** A request body schema named `name`, derived from a Vine validator. */
export function bodyOf(name: string, source: Describable, extra: JsonSchema = {}) {
  return named(name, { ...schemaOf(source), ...extra })
}

/**
 * One parameter per property of a Vine validator (query strings, path
 * parameters); descriptions come from the fields' `.meta()`, or `descriptions`.
 */
export function parametersOf(
  source: Describable,
  location: 'query' | 'path',
  descriptions: Record<string, string> = {}
): Parameter[] {
  const schema = schemaOf(source)
  const required: string[] = schema.required ?? []
  return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, field]) => {
    const { description, ...rest } = field
    return {
      name,
      in: location,
      required: location === 'path' || required.includes(name),
      description: descriptions[name] ?? description ?? name,
      schema: rest,
      validated: true,
    }
  })
}

/** The same, keyed by name (a module's or an operation's `params`). */
export function paramsOf(source: Describable, descriptions: Record<string, string> = {}) {
  return Object.fromEntries(
    parametersOf(source, 'path', descriptions).map((param) => [param.name, param])
  )
}

export function pathParam(
  name: string,
  description: string,
  schema: unknown = { type: 'string' }
): Parameter {
  return { name, in: 'path', required: true, description, schema }
}

export function queryParam(
  name: string,
  description: string,
  schema: unknown = { type: 'string' },
  required = false
): Parameter {
  return { name, in: 'query', required, description, schema }
}

export function headerParam(name: string, description: string): Parameter {
  return { name, in: 'header', required: false, description, schema: { type: 'string' } }
}

/** The conditional headers as #core/http/etag reads them. */
export const ifMatchParam = headerParam(
  'If-Match',
  'ETag entre comillas dobles, tal como lo da el encabezado ETag (`"2.6"`), una lista de ellos, o `*`; ' +
    'sin él la escritura procede. Mal formado (sin comillas) → 400 con `Errors["If-Match"]`; ' +
    'no coincide (o `W/…`, que nunca coincide) → 412 con el ETag actual.'
)
export const ifNoneMatchParam = headerParam(
  'If-None-Match',
  'ETag de una copia anterior entre comillas dobles (`"2.6"`, o débil `W/"2.6"`), una lista de ellos, o `*`: ' +
    'si coincide, 304. Mal formado → 400 con `Errors["If-None-Match"]`.'
)

export const secured = [{ bearer: [] }]
export const open: never[] = []
