/*
 * The OpenAPI 3.1 document, assembled from each module's fragment (start/modules.ts). A test
 * keeps it equal to the registered routes.
 */
import { contributions } from '#core/modules'
import { secured, type OpenApiFragment } from './helpers.js'

async function fragments(): Promise<OpenApiFragment[]> {
  const modules = await contributions('openapi')
  return modules.map((module) => module.openapi)
}

let cached: Promise<object> | null = null

export function openApiDocument() {
  cached ??= build()
  return cached
}

async function build() {
  const paths: Record<string, unknown> = {}
  const schemas: Record<string, unknown> = {}
  for (const fragment of await fragments()) {
    Object.assign(paths, fragment.paths)
    Object.assign(schemas, fragment.schemas)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'API de publicaciones de concesionarias',
      version: '3',
      description:
        'API HTTP/JSON para agencias, operadores, sucursales, publicaciones, consultas y el catálogo de vehículos. ' +
        'Autenticación: `Authorization: Bearer <token>` (ver `node ace app:create`). ' +
        'Representación completa con `Accept: application/json`; referencia con `application/vnd.service.ref+json`.',
    },
    servers: [{ url: '/' }],
    security: secured,
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Token opaco de la aplicación' },
      },
      schemas,
    },
  }
}
