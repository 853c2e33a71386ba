import {
  jsonBody,
  listOf,
  negotiated,
  pathParam,
  problems,
  ref,
  type OpenApiFragment,
} from '#core/openapi/helpers'

const topic = pathParam('topic', 'Tópico de eventos de la aplicación', {
  type: 'string',
  enum: ['invitaciones'],
})

const header = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['Name', 'Value'],
      properties: {
        Name: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          description:
            'Token RFC 7230; no se admiten Host, Content-*, Transfer-Encoding, Connection, User-Agent ni webhook-*',
        },
        Value: {
          type: 'string',
          maxLength: 1024,
          description: 'Sin CR, LF ni caracteres de control',
        },
      },
    },
  ],
}

const webhookFields = {
  Callback: {
    type: 'string',
    format: 'uri',
    maxLength: 1024,
    description: 'URL https absoluta que recibe los eventos (POST JSON, Standard Webhooks)',
  },
  Secret: {
    type: ['string', 'null'],
    maxLength: 256,
    description:
      'Clave de firma (16..256; `whsec_…` en base64 o texto libre, firmado con sus bytes UTF-8). Solo escritura: null o ausente la conserva, "" la elimina.',
  },
  Description: { type: ['string', 'null'], maxLength: 200 },
  Activo: { type: 'boolean', default: true },
  HeaderCustom01: header,
  HeaderCustom02: header,
  HeaderCustom03: header,
}

const write = (summary: string, success: Record<string, unknown>, errors: number[]) => ({
  tags: ['Aplicación'],
  summary,
  parameters: [topic],
  requestBody: jsonBody(ref('AppWebhookEdit')),
  responses: { ...success, ...problems(400, 404, 406, 413, 415, ...errors) },
})

export const openapi: OpenApiFragment = {
  paths: {
    '/v3/appnotificaciones': {
      get: {
        tags: ['Aplicación'],
        summary: 'Suscripciones de la aplicación a eventos (tópicos y enlaces)',
        responses: {
          '200': negotiated(
            'Suscripciones',
            listOf(ref('AppWebhook')),
            listOf(ref('AppWebhookRef'))
          ),
          ...problems(406),
        },
      },
    },
    '/v3/appnotificaciones/{topic}': {
      get: {
        tags: ['Aplicación'],
        summary: 'Suscripción a un tópico',
        parameters: [topic],
        responses: {
          '200': negotiated('Suscripción', ref('AppWebhook'), ref('AppWebhookRef')),
          ...problems(404, 406),
        },
      },
      post: write(
        'Crea la suscripción a un tópico',
        {
          '201': {
            ...negotiated('Creada', ref('AppWebhook'), ref('AppWebhookRef')),
            headers: { Location: { schema: { type: 'string' } } },
          },
        },
        [409]
      ),
      put: write(
        'Crea o reemplaza la suscripción a un tópico',
        { '200': negotiated('Guardada', ref('AppWebhook'), ref('AppWebhookRef')) },
        []
      ),
    },
  },
  schemas: {
    AppWebhookEdit: { type: 'object', required: ['Callback'], properties: webhookFields },
    AppWebhook: {
      type: 'object',
      properties: {
        ...webhookFields,
        Secret: { type: 'null', description: 'Nunca se devuelve' },
        _links: ref('Links'),
      },
    },
    AppWebhookRef: {
      type: 'object',
      required: ['href', 'title'],
      properties: {
        href: { type: 'string' },
        title: { type: 'string' },
        Topico: { type: 'string' },
        Activo: { type: 'boolean' },
      },
    },
  },
}
