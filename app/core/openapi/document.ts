/*
 * The OpenAPI 3.1 document, generated: paths from the router, what each
 * operation means from the modules' metadata (their providers, app/core/modules.ts), request
 * schemas from the Vine validators and response schemas from the wire shapes
 * the transformers are typed against. A route without metadata, or metadata
 * without a route, fails the build.
 */
import router from '@adonisjs/core/services/router'
import { contributions } from '#core/modules'
import {
  etagHeader,
  header,
  problems,
  secured,
  type OpenApiFragment,
  type Parameter,
} from './helpers.js'
import { refsOf } from './schema.js'
import { ProblemSchema } from './wire.js'
import { JSON_BODY_METHODS } from '../http/middleware/json_body_middleware.js'

let cached: Promise<object> | null = null

/**
 * Any operation may answer 503 + Retry-After while the database is away
 * (docs/design.md §13): a problem, or the HTML error page where the operation's
 * client errors are pages.
 */
function unavailable(responses: Record<string, any>) {
  const pages = Object.entries(responses).some(
    ([status, response]) =>
      status.startsWith('4') &&
      response.content?.['text/html'] &&
      !response.content['application/problem+json']
  )
  return {
    description: 'Servicio no disponible: reintentar después de Retry-After',
    headers: { 'Retry-After': header('Segundos', { type: 'integer' }) },
    content: pages
      ? { 'text/html': { schema: { type: 'string' } } }
      : { 'application/problem+json': { schema: ProblemSchema } },
  }
}

/**
 * Every authenticated POST accepts `Idempotency-Key` (docs/design.md §14):
 * the header, the replay marker on its answers, 409 while the first request
 * runs and 422 when the key comes back with another body.
 */
const idempotencyKey: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Clave del cliente (1..255 ASCII visibles) para reintentar sin duplicar: la misma clave y el mismo ' +
    'cuerpo dentro de 24 h repiten la primera respuesta.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
}
const replayed = header(
  '`true` cuando la respuesta repite la primera con la misma Idempotency-Key',
  {
    type: 'string',
    enum: ['true'],
  }
)

function withReplayMarker(responses: Record<string, any>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) =>
      status.startsWith('2')
        ? [
            status,
            { ...response, headers: { ...response.headers, 'Idempotent-Replayed': replayed } },
          ]
        : [status, response]
    )
  )
}

/**
 * Any body sent to the API is refused before the operation runs when it is not
 * JSON (415), over 1 MiB (413) or stops arriving (408): every operation whose
 * method carries a body says so (JSON_BODY_METHODS of the middleware that
 * refuses it).
 */
function bodyProblems(method: string, pattern: string) {
  return pattern.startsWith('/v3') && JSON_BODY_METHODS.includes(method) ? [408, 413, 415] : []
}

/**
 * Every answer of a secured operation is counted by a limit and says so
 * (#core/http/per_minute_limiter): after authentication the app's quota, a 401
 * the address's failed authentications. Not every answer can (one refused before
 * authentication, a 503), so optional — except on a 429, which always has them.
 */
const rateLimitPolicy = header(
  'Cuota que cuenta esta respuesta (borrador IETF httpapi ratelimit-headers): `"aplicacion"` (solicitudes de la ' +
    'aplicación) o `"autenticacion"` (autenticaciones fallidas de la dirección); `q` solicitudes cada `w` segundos',
  { type: 'string', pattern: '^"[a-z]+";q=\\d+;w=\\d+$' }
)
const rateLimit = header(
  'Lo que queda de esa cuota: `r` solicitudes, `t` segundos hasta que se renueve',
  {
    type: 'string',
    pattern: '^"[a-z]+";r=\\d+;t=\\d+$',
  }
)
const countHeader = (description: string) => header(description, { type: 'integer', minimum: 0 })
const limitHeaders = {
  'RateLimit-Policy': rateLimitPolicy,
  'RateLimit': rateLimit,
  'X-RateLimit-Limit': countHeader('Solicitudes por minuto de la cuota (como `q`)'),
  'X-RateLimit-Remaining': countHeader('Solicitudes que quedan (como `r`)'),
}
const limitedHeaders = {
  ...limitHeaders,
  'RateLimit-Policy': { ...rateLimitPolicy, required: true },
  'RateLimit': { ...rateLimit, required: true },
  'Retry-After': header(
    'Segundos hasta que se renueve la cuota',
    { type: 'integer', minimum: 1 },
    true
  ),
  'X-RateLimit-Reset': header('Cuándo se renueva la cuota', {
    type: 'string',
    format: 'date-time',
  }),
}

function withRateLimit(responses: Record<string, any>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      status === '503'
        ? response
        : {
            ...response,
            headers: {
              ...response.headers,
              ...(status === '429' ? limitedHeaders : limitHeaders),
            },
          },
    ])
  )
}

/** A 412 names the resource's current ETag, so the client can retry without a GET (#core/http/etag). */
function withCurrentEtag(responses: Record<string, any>) {
  const failed = responses['412']
  if (!failed) return responses
  return { ...responses, '412': { ...failed, headers: { ...failed.headers, ETag: etagHeader } } }
}

export function openApiDocument() {
  cached ??= build()
  return cached
}

/**
 * The document built afresh, not kept: for a process that only derives
 * something from it once (the input gate's member trees). Kept, it held
 * ≈ 6 MB of the web's heap, which every full collection marks again.
 */
export function buildOpenApiDocument() {
  return build()
}

/** `/v3/agencias/:adminmail` → `/v3/agencias/{adminmail}`. */
function openApiPath(pattern: string) {
  return pattern.replace(/:(\w+)\??/g, '{$1}')
}

async function build() {
  const modules = await contributions('openapi')
  const fragments = modules.map((module) => module.openapi)
  // The HTTP server commits the routes when it starts; a worker process (a stock sync's job
  // checks rows against the document) never does. Committing twice is a no-op.
  router.commit()
  const routes = Object.values(router.toJSON())
    .flat()
    .flatMap((route) =>
      route.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => ({ method, pattern: route.pattern.replace(/(.)\/$/, '$1') }))
    )
  const sharedParams: Record<string, Parameter> = Object.assign(
    {},
    ...fragments.map((fragment) => fragment.params ?? {})
  )
  const owners = new Map<string, OpenApiFragment>()
  for (const fragment of fragments) {
    for (const key of Object.keys(fragment.operations)) owners.set(key, fragment)
  }

  const paths: Record<string, Record<string, unknown>> = {}
  const undocumented: string[] = []
  for (const { method, pattern } of routes) {
    const key = `${method} ${pattern}`
    const fragment = owners.get(key)
    if (!fragment) {
      undocumented.push(key)
      continue
    }
    owners.delete(key)
    const {
      tag,
      params,
      parameters,
      problems: statuses,
      security,
      responses,
      idempotent: keyed,
      ...rest
    } = fragment.operations[key]
    const pathParams = [...pattern.matchAll(/:(\w+)/g)].map(([, name]) => {
      const param = params?.[name] ?? fragment.params?.[name] ?? sharedParams[name]
      if (!param) throw new Error(`OpenAPI: no description for path parameter ${name} of ${key}`)
      return param
    })
    // A path parameter checked by a validator answers 400 when malformed; so does an
    // If-None-Match that is not a quoted entity tag, wherever the API can answer 304
    // (the buyers' HTML pages read it leniently).
    const conditional = pattern.startsWith('/v3') && responses['304']
    const checked = pathParams.some((param) => param.validated) || conditional ? [400] : []
    const isOpen = security !== undefined && security.length === 0
    const idempotent = method === 'POST' && !isOpen && pattern.startsWith('/v3') && keyed !== false
    const extraParameters = [...(parameters ?? []), ...(idempotent ? [idempotencyKey] : [])]
    const path = openApiPath(pattern)
    paths[path] ??= {}
    paths[path][method.toLowerCase()] = {
      tags: [tag],
      ...rest,
      ...(isOpen ? { security } : {}),
      ...(pathParams.length || extraParameters.length
        ? {
            parameters: [...pathParams, ...extraParameters].map(
              ({ validated: _validated, ...param }) => param
            ),
          }
        : {}),
      responses: (isOpen ? (all: Record<string, any>) => all : withRateLimit)(
        withCurrentEtag({
          '503': unavailable(responses),
          ...(idempotent ? withReplayMarker(responses) : responses),
          // A status the operation describes itself (a problem with more members) keeps its description.
          ...problems(
            ...[
              ...new Set([
                ...checked,
                ...(statuses ?? []),
                ...(isOpen ? [] : [401, 429]),
                ...(idempotent ? [409, 422] : []),
                ...bodyProblems(method, pattern),
              ]),
            ].filter((status) => !(String(status) in responses))
          ),
        })
      ),
    }
  }
  const unused = [...owners.keys()]
  if (undocumented.length || unused.length) {
    throw new Error(
      `OpenAPI: routes without metadata: ${undocumented.join(', ') || '-'}; ` +
        `metadata without a route: ${unused.join(', ') || '-'}`
    )
  }

  const schemas: Record<string, unknown> = {}
  refsOf({ problem: ProblemSchema }, schemas)
  for (const fragment of fragments) refsOf(fragment.schemas ?? {}, schemas)
  const resolved = refsOf(paths, schemas)
  return {
    openapi: '3.1.0',
    info: {
      title: 'API de publicaciones de concesionarias',
      version: '3',
      description:
        'API HTTP/JSON para agencias, operadores, sucursales, publicaciones, consultas y el catálogo de vehículos. ' +
        'Autenticación: `Authorization: Bearer <token>` (ver `node ace app:create`). ' +
        'Representación completa con `Accept: application/json`; referencia con `application/vnd.service.ref+json`.',
      contact: { name: 'Equipo de la API de publicaciones' },
      license: { name: 'Propietaria', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'Este servicio' }],
    security: secured,
    tags: fragments.flatMap((fragment) => fragment.tags ?? []),
    paths: Object.fromEntries(
      Object.entries(resolved as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))
    ),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Token opaco de la aplicación' },
      },
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  }
}
