/*
 * What core contributes to the document: the entry point, the document and
 * its reference, health; the `{adminmail}` parameter every module shares.
 */
import { adminMailSchema } from '#core/http/params'
import vine from '@vinejs/vine'
import {
  clientError,
  etagHeader,
  header,
  negotiated,
  notModified,
  open,
  paramsOf,
  pathParam,
  type OpenApiFragment,
} from './helpers.js'
import { EntryPointSchema } from '#core/entry_point'
import { named } from './schema.js'

export const HealthSchema = named('Salud', {
  type: 'object',
  required: ['Estado'],
  properties: {
    Estado: { type: 'string', enum: ['ok', 'error'] },
    Chequeos: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { Estado: { type: 'string' }, Mensaje: { type: 'string' } },
      },
    },
  },
})

const text = (type: string, description: string) => ({
  description,
  content: { [type]: { schema: { type: 'string' } } },
})

export const openapi: OpenApiFragment = {
  tags: [
    { name: 'Entrada', description: 'Puntos de entrada, este documento y su referencia navegable' },
    { name: 'Salud', description: 'Sondas de vida y disponibilidad para el orquestador' },
  ],
  params: paramsOf(vine.create({ adminmail: adminMailSchema() }), {
    adminmail: 'E-mail del administrador de la agencia (sin distinguir mayúsculas)',
  }),
  operations: {
    'GET /v3': {
      operationId: 'getEntryPoint',
      tag: 'Entrada',
      summary: 'Puntos de entrada de la API',
      description: 'Enlaces a las colecciones de la API; con ETag (304 a un If-None-Match igual).',
      responses: {
        '200': negotiated('Puntos de entrada', EntryPointSchema, undefined, { ETag: etagHeader }),
        '304': notModified,
      },
      problems: [406],
    },
    'GET /v3/openapi.json': {
      operationId: 'getOpenApiDocument',
      tag: 'Entrada',
      summary: 'Este documento',
      description: 'El documento OpenAPI 3.1 de la API, generado a partir del código.',
      security: open,
      responses: {
        '200': {
          description: 'OpenAPI 3.1',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        ...clientError,
      },
    },
    'GET /docs': {
      operationId: 'getDocsPage',
      tag: 'Entrada',
      summary: 'Referencia navegable de la API',
      description: 'Página HTML que presenta este documento; sus recursos se sirven localmente.',
      security: open,
      responses: {
        '200': text('text/html', 'HTML'),
        ...clientError,
      },
    },
    'GET /docs/assets/:file': {
      operationId: 'getDocsAsset',
      tag: 'Entrada',
      summary: 'Recursos estáticos de la referencia',
      description: 'Hojas de estilo y scripts de la referencia navegable.',
      security: open,
      params: { file: pathParam('file', 'Nombre del recurso') },
      responses: {
        '200': {
          description: 'Archivo',
          headers: { 'Content-Type': header('text/css o text/javascript') },
          content: {
            'text/css': { schema: { type: 'string' } },
            'text/javascript': { schema: { type: 'string' } },
          },
        },
      },
      problems: [404],
    },
    'GET /health/live': {
      operationId: 'checkLiveness',
      tag: 'Salud',
      summary: 'El proceso responde',
      description: 'Responde 200 mientras el proceso atiende solicitudes.',
      security: open,
      responses: {
        '200': { description: 'Vivo', content: { 'application/json': { schema: HealthSchema } } },
        ...clientError,
      },
    },
    'GET /health/ready': {
      operationId: 'checkReadiness',
      tag: 'Salud',
      summary: 'Base de datos y ejecutor de tareas disponibles',
      description: '200 cuando la base de datos y el ejecutor de tareas responden; si no, 503.',
      security: open,
      responses: {
        '200': { description: 'Listo', content: { 'application/json': { schema: HealthSchema } } },
        '503': {
          description: 'No listo',
          content: { 'application/json': { schema: HealthSchema } },
        },
        ...clientError,
      },
    },
  },
}
