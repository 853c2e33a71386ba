import {
  jsonBody,
  negotiated,
  pathParam,
  problems,
  queryParam,
  ref,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { INTERESTS, LEAD_ORIGINS } from '#core/value_sets'

const adminmail = pathParam('adminmail', 'E-mail del administrador de la agencia', {
  type: 'string',
  format: 'email',
})
const sid = pathParam('sid', 'Id público de la consulta', { type: 'string' })
const nullableString = (maxLength: number) => ({ type: ['string', 'null'], maxLength })
const valor = { oneOf: [{ type: 'null' }, ref('Valor')] }

const header = {
  oneOf: [
    { type: 'null' },
    {
      type: 'object',
      required: ['Name', 'Value'],
      properties: {
        Name: { type: 'string', minLength: 1, maxLength: 64 },
        Value: {
          type: 'string',
          maxLength: 1024,
          description: 'Sin CR, LF ni caracteres de control',
        },
      },
    },
  ],
}
const callback = {
  type: 'string',
  format: 'uri',
  maxLength: 1024,
  description: 'URL https absoluta (http solo con OUTBOUND_ALLOW_PRIVATE, para pruebas locales)',
}

const listParams = [
  queryParam('operador', 'Solo las consultas de este colaborador (operador responsable)', {
    type: 'string',
    format: 'email',
  }),
  queryParam('externalid', 'ExternalId de la publicación', { type: 'string' }),
  queryParam(
    'desde',
    'Primer día de recepción (YYYY-MM-DD); mínimo hoy − 90 días; por defecto hoy − 90 días',
    { type: 'string', format: 'date' }
  ),
  queryParam(
    'hasta',
    'Último día de recepción (YYYY-MM-DD); no anterior a desde; por defecto hoy',
    { type: 'string', format: 'date' }
  ),
  queryParam('pagina', 'Página (1..99), de 100 consultas', {
    type: 'integer',
    minimum: 1,
    maximum: 99,
    default: 1,
  }),
]

const listResponses = {
  '200': negotiated('Consultas de la página', ref('ConsultasPagina'), ref('ConsultasPaginaRef')),
}

export const openapi: OpenApiFragment = {
  paths: {
    '/v3/consultas': {
      get: {
        tags: ['Consultas'],
        summary:
          'Consultas de un colaborador en las agencias de la aplicación (operador obligatorio)',
        parameters: listParams.map((param) =>
          param.name === 'operador' ? { ...param, required: true } : param
        ),
        responses: { ...listResponses, ...problems(400, 406) },
      },
    },
    '/v3/consultas/{adminmail}': {
      get: {
        tags: ['Consultas'],
        summary: 'Consultas de la agencia visibles para la aplicación, paginadas',
        description:
          'Consultas de publicaciones de la aplicación y, si la agencia la habilitó para otras consultas, las de catálogo. ' +
          'Más recientes primero.',
        parameters: [adminmail, ...listParams],
        responses: { ...listResponses, ...problems(400, 404, 406) },
      },
      post: {
        tags: ['Consultas'],
        summary: 'Recibe una consulta (requiere el permiso consultas:crear)',
        description:
          'La consulta y todas sus notificaciones se confirman en una transacción. Publicación suspendida o archivada → 409; ' +
          'publicación o versión inexistente → 400.',
        parameters: [adminmail],
        requestBody: jsonBody(ref('ConsultaCreate')),
        responses: {
          '201': {
            ...negotiated('Consulta recibida', ref('Consulta')),
            headers: { Location: { schema: { type: 'string' } } },
          },
          ...problems(400, 403, 404, 406, 409, 413, 415),
        },
      },
    },
    '/v3/consultas/{adminmail}/{sid}': {
      get: {
        tags: ['Consultas'],
        summary: 'Una consulta',
        parameters: [adminmail, sid],
        responses: { '200': negotiated('Consulta', ref('Consulta')), ...problems(404, 406) },
      },
    },
    '/v3/consultas/{adminmail}/{sid}/entregas': {
      get: {
        tags: ['Consultas'],
        summary: 'Notificaciones de la consulta para la aplicación y cada intento',
        parameters: [adminmail, sid],
        responses: { '200': negotiated('Entregas', ref('Entregas')), ...problems(404, 406) },
      },
    },
    '/v3/consultas/{adminmail}/{sid}/resendwebhook': {
      post: {
        tags: ['Consultas'],
        summary: 'Reenvía el webhook de la consulta (mismo webhook-id, "Reenvio": true)',
        description: `Solo dentro del plazo de reenvío (RESEND_WINDOW_DAYS, 7 días por defecto) y con un webhook activo; si no, 400.`,
        parameters: [adminmail, sid],
        responses: {
          '202': {
            ...negotiated('Carga útil encolada', ref('PublicacionConsultada')),
            headers: { Location: { description: 'URL del Callback', schema: { type: 'string' } } },
          },
          ...problems(400, 403, 404, 406),
        },
      },
    },
    '/v3/notificaciones/{adminmail}': {
      get: {
        tags: ['Notificaciones'],
        summary: 'Configuración de notificaciones de la agencia para la aplicación',
        parameters: [adminmail],
        responses: {
          '200': negotiated('Configuración', ref('NotificacionesConfig')),
          ...problems(404, 406),
        },
      },
      put: {
        tags: ['Notificaciones'],
        summary:
          'Reemplaza la configuración de notificaciones (un canal ausente o null se elimina)',
        parameters: [adminmail],
        requestBody: jsonBody(ref('NotificacionesConfig')),
        responses: {
          '200': negotiated('Configuración guardada', ref('NotificacionesConfig')),
          ...problems(400, 403, 406, 413, 415),
        },
      },
    },
  },
  schemas: {
    Interesado: {
      type: 'object',
      description: 'Se requiere Email o Telefono.',
      properties: {
        Interes: { type: ['string', 'null'], enum: [...INTERESTS, null] },
        Nombre: nullableString(50),
        Apellido: nullableString(50),
        Email: { type: ['string', 'null'], format: 'email', maxLength: 100 },
        Telefono: { type: ['string', 'null'], minLength: 6, maxLength: 30 },
        DocIdentidad: nullableString(20),
        Provincia: nullableString(100),
        Ciudad: nullableString(100),
        Comentario: nullableString(2000),
        InfoOperacion: {
          oneOf: [
            { type: 'null' },
            {
              type: 'object',
              properties: {
                EntregaVehiculo: {
                  type: ['object', 'null'],
                  properties: {
                    Marca: nullableString(50),
                    Modelo: nullableString(50),
                    VersionYear: { type: ['integer', 'null'], minimum: 1908, maximum: 2050 },
                  },
                },
                FinanciacionDeseada: {
                  type: ['object', 'null'],
                  properties: { Adelanto: valor, Cuota: valor },
                },
                QuiereCotizacionSeguro: { type: ['boolean', 'null'] },
              },
            },
          ],
        },
      },
    },
    ConsultaCreate: {
      type: 'object',
      required: ['OrigenLead', 'Interesado'],
      description: 'Exactamente uno de ExternalId (publicación) o VersionId (catálogo).',
      properties: {
        ExternalId: { type: 'string', minLength: 2, maxLength: 255, pattern: '^[A-Za-z0-9._~-]+$' },
        VersionId: { type: 'integer', minimum: 1 },
        OrigenLead: { type: 'string', enum: [...LEAD_ORIGINS] },
        Interesado: ref('Interesado'),
      },
    },
    Consulta: {
      type: 'object',
      properties: {
        Momento: { type: 'string', format: 'date-time' },
        OrigenLead: { type: 'string', enum: [...LEAD_ORIGINS] },
        TipoAnuncio: { type: 'string', enum: ['Publicacion', 'Catalogo'] },
        Auto: {
          type: 'object',
          properties: {
            ExternalId: { type: 'string' },
            RefStock: { type: ['string', 'null'] },
            Marca: { type: ['string', 'null'] },
            Modelo: { type: ['string', 'null'] },
            Version: { type: ['string', 'null'] },
            VersionYear: { type: ['integer', 'null'] },
            Kilometraje: { type: ['integer', 'null'] },
            Color: { type: ['string', 'null'] },
            BodyType: { type: ['string', 'null'] },
            Estado: { type: ['string', 'null'], enum: ['Nuevo', 'Usado', null] },
            Precio: valor,
            Anticipo: valor,
            Cuota: valor,
          },
        },
        Interesado: ref('Interesado'),
        OperadorResponsable: { type: ['string', 'null'], format: 'email' },
        _links: ref('Links'),
      },
    },
    ConsultasPagina: {
      type: 'object',
      properties: {
        Desde: { type: 'string', format: 'date-time' },
        Hasta: { type: 'string', format: 'date-time' },
        Pagina: { type: 'integer' },
        Total: { type: 'integer' },
        PerPagina: { type: 'integer', const: 100 },
        _links: ref('Links'),
        _entries: { type: 'array', items: ref('Consulta') },
      },
    },
    ConsultasPaginaRef: {
      type: 'object',
      properties: {
        Desde: { type: 'string', format: 'date-time' },
        Hasta: { type: 'string', format: 'date-time' },
        Pagina: { type: 'integer' },
        Total: { type: 'integer' },
        PerPagina: { type: 'integer' },
        _links: ref('Links'),
        _entries: { type: 'array', items: ref('Reference') },
      },
    },
    PublicacionConsultada: {
      type: 'object',
      description:
        'Carga del webhook (POST JSON) con encabezados Standard Webhooks: webhook-id (estable en reintentos y reenvíos), ' +
        'webhook-timestamp y webhook-signature (v1, HMAC-SHA256 con el Secret).',
      properties: {
        Tipo: { type: 'string', const: 'PublicacionConsultada' },
        Momento: { type: 'string', format: 'date-time' },
        Reenvio: { type: 'boolean', description: 'Presente (true) en los reenvíos' },
        Agencia: {
          type: 'object',
          properties: { AdminMail: { type: 'string' }, href: { type: 'string' } },
        },
        Consulta: ref('Consulta'),
      },
    },
    Entregas: {
      type: 'object',
      properties: {
        _links: ref('Links'),
        _entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              Canal: {
                type: 'string',
                enum: [
                  'PublicacionConsultadaWebHook',
                  'PublicacionConsultadaAdfHook',
                  'PublicacionConsultadaAdfMail',
                  'PublicacionConsultadaHtmlMail',
                ],
              },
              Destino: { type: 'string' },
              Estado: {
                type: 'string',
                enum: ['Pendiente', 'Reintentando', 'Entregada', 'Fallida', 'Desactivada'],
              },
              WebhookId: { type: 'string' },
              Creada: { type: 'string', format: 'date-time' },
              Entregada: { type: ['string', 'null'], format: 'date-time' },
              ProximoIntento: { type: ['string', 'null'], format: 'date-time' },
              UltimoError: { type: ['string', 'null'] },
              Intentos: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    Numero: { type: 'integer' },
                    Momento: { type: 'string', format: 'date-time' },
                    CodigoRespuesta: { type: ['integer', 'null'] },
                    DuracionMs: { type: 'integer' },
                    Error: { type: ['string', 'null'] },
                  },
                },
              },
            },
          },
        },
      },
    },
    NotificacionesConfig: {
      type: 'object',
      properties: {
        PublicacionConsultadaWebHook: {
          type: ['object', 'null'],
          required: ['Callback'],
          properties: {
            Callback: callback,
            Secret: {
              type: ['string', 'null'],
              maxLength: 256,
              description:
                'Clave de firma (16..256). Solo escritura: las respuestas llevan null; null o ausente conserva la guardada, "" la elimina.',
            },
            Activo: { type: 'boolean', default: true },
            HeaderCustom01: header,
            HeaderCustom02: header,
            HeaderCustom03: header,
          },
        },
        PublicacionConsultadaAdfHook: {
          type: ['object', 'null'],
          required: ['Callback'],
          properties: {
            Callback: callback,
            Activo: { type: 'boolean', default: true },
            HeaderCustom01: header,
          },
        },
        PublicacionConsultadaAdfMail: {
          type: ['object', 'null'],
          required: ['Email'],
          properties: {
            Email: { type: 'string', format: 'email', maxLength: 254 },
            Activo: { type: 'boolean', default: true },
          },
        },
        PublicacionConsultadaHtmlMail: {
          type: ['object', 'null'],
          required: ['EmailsCCO'],
          properties: {
            EmailsCCO: {
              type: 'string',
              description: 'Lista separada por comas, 1..10 direcciones (copia oculta)',
            },
            Activo: { type: 'boolean', default: true },
          },
        },
        _links: ref('Links'),
      },
    },
  },
}
