import { negotiated, open, problems, ref, type OpenApiFragment } from './helpers.js'

export const openapi: OpenApiFragment = {
  paths: {
    '/v3': {
      get: {
        tags: ['Entrada'],
        summary: 'Puntos de entrada de la API',
        responses: {
          '200': {
            ...negotiated('Puntos de entrada', ref('EntryPoint')),
            headers: { ETag: { schema: { type: 'string' } } },
          },
          '304': { description: 'Sin cambios respecto del ETag enviado' },
          ...problems(406),
        },
      },
    },
    '/v3/openapi.json': {
      get: {
        tags: ['Entrada'],
        summary: 'Este documento',
        security: open,
        responses: { '200': { description: 'OpenAPI 3.1' } },
      },
    },
    '/docs': {
      get: {
        tags: ['Entrada'],
        summary: 'Referencia navegable de la API',
        security: open,
        responses: { '200': { description: 'HTML' } },
      },
    },
    '/docs/assets/{file}': {
      get: {
        tags: ['Entrada'],
        summary: 'Recursos estáticos de la referencia',
        security: open,
        parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'Archivo' }, '404': { description: 'No existe' } },
      },
    },
    '/health/live': {
      get: {
        tags: ['Salud'],
        summary: 'El proceso responde',
        security: open,
        responses: { '200': { description: 'Vivo' } },
      },
    },
    '/health/ready': {
      get: {
        tags: ['Salud'],
        summary: 'Base de datos y ejecutor de tareas disponibles',
        security: open,
        responses: { '200': { description: 'Listo' }, '503': { description: 'No listo' } },
      },
    },
  },
  schemas: {
    Problem: {
      type: 'object',
      required: ['Type', 'Title', 'Status', 'Instance', 'Extensions'],
      properties: {
        Type: { type: 'string', format: 'uri' },
        Title: { type: 'string' },
        Status: { type: 'integer' },
        Detail: { type: 'string' },
        Instance: { type: 'string' },
        Extensions: { type: 'object', properties: { TraceId: { type: 'string' } } },
        Errors: {
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    Link: {
      type: 'object',
      required: ['href'],
      properties: {
        href: { type: 'string' },
        templated: { type: 'boolean' },
        method: { type: 'string' },
        title: { type: 'string' },
      },
    },
    Links: { type: 'object', additionalProperties: ref('Link') },
    LinkGroup: { type: 'object', properties: { _links: ref('Links') } },
    Reference: {
      type: 'object',
      required: ['href', 'title'],
      properties: { href: { type: 'string' }, title: { type: 'string' } },
    },
    Valor: {
      type: 'object',
      required: ['Moneda', 'Importe'],
      properties: {
        Moneda: { type: 'string', examples: ['ARS', 'USD'] },
        Importe: { type: 'number' },
      },
    },
    EntryPoint: {
      type: 'object',
      properties: {
        Agencias: ref('LinkGroup'),
        Regiones: ref('LinkGroup'),
        Ciudades: ref('LinkGroup'),
        Monedas: ref('LinkGroup'),
        Propulsiones: ref('LinkGroup'),
        Transmisiones: ref('LinkGroup'),
        Carrocerias: ref('LinkGroup'),
        Marcas: ref('LinkGroup'),
        Modelos: ref('LinkGroup'),
        Versiones: ref('LinkGroup'),
        AppNotificaciones: ref('LinkGroup'),
        _links: ref('Links'),
      },
    },
  },
}
