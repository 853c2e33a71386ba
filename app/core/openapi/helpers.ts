/*
 * Small builders that keep the OpenAPI fragments of each module short and
 * consistent: shared problem responses, negotiated JSON bodies, parameters.
 */
export type OpenApiFragment = {
  paths: Record<string, Record<string, unknown>>
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
  409: 'Conflicto',
  410: 'Ya no disponible',
  412: 'El ETag no coincide',
  413: 'Cuerpo mayor a 1 MiB',
  415: 'El cuerpo no es JSON',
  429: 'Límite de solicitudes superado',
}

export function problems(...statuses: number[]) {
  return Object.fromEntries(
    [...statuses, 401, 429].map((status) => [
      String(status),
      {
        description: PROBLEM_TEXT[status] ?? 'Error',
        content: { 'application/problem+json': { schema: ref('Problem') } },
      },
    ])
  )
}

/** A 2xx response in both representations. */
export function negotiated(
  description: string,
  full: unknown,
  reference: unknown = ref('Reference')
) {
  return {
    description,
    headers: { Vary: { schema: { type: 'string' } } },
    content: {
      'application/json': { schema: full },
      'application/vnd.service.entry+json': { schema: full },
      'text/json': { schema: full },
      'application/vnd.service.ref+json': { schema: reference },
    },
  }
}

export function jsonBody(schema: unknown, required = true) {
  return { required, content: { 'application/json': { schema } } }
}

export function pathParam(name: string, description: string, schema: unknown = { type: 'string' }) {
  return { name, in: 'path', required: true, description, schema }
}

export function queryParam(
  name: string,
  description: string,
  schema: unknown = { type: 'string' },
  required = false
) {
  return { name, in: 'query', required, description, schema }
}

export const listOf = (item: unknown) => ({
  type: 'object',
  properties: { _links: ref('Links'), _entries: { type: 'array', items: item } },
})

export const secured = [{ bearer: [] }]
export const open: never[] = []
