/*
 * What the inquiry and notification routes mean (docs/spec.md §4.5, §4.6),
 * beside routes.ts. Bodies and queries come from the validators, shapes from
 * the transformers.
 */
import {
  bodyOf,
  jsonBody,
  locationHeader,
  negotiated,
  parametersOf,
  pathParam,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { ReferenceSchema } from '#core/openapi/wire'
import { intakeValidator, listQueryValidator } from '#leads/validators/inquiry_validators'
import {
  notificationConfigValidator,
  notificationTestValidator,
} from '#leads/validators/notification_validators'
import { PruebaResultadoSchema } from '#apps/transformers/app_event_transformer'
import {
  ConsultaSchema,
  ConsultasPaginaRefSchema,
  ConsultasPaginaSchema,
  PublicacionConsultadaSchema,
} from '#leads/transformers/inquiry_transformer'
import { EntregasRefSchema, EntregasSchema } from '#leads/transformers/delivery_transformer'
import { NotificacionesConfigSchema } from '#leads/transformers/notification_config_transformer'

const LIST_QUERY = {
  operador: 'Solo las consultas de este colaborador (operador responsable)',
  externalid: 'ExternalId de la publicación',
  desde: 'Primer día de recepción (YYYY-MM-DD); mínimo hoy − 90 días; por defecto hoy − 90 días',
  hasta: 'Último día de recepción (YYYY-MM-DD); no anterior a desde; por defecto hoy',
  pagina: 'Página (1..99), de 100 consultas',
}
const listQuery = parametersOf(listQueryValidator, 'query', LIST_QUERY)
const page = negotiated('Consultas de la página', ConsultasPaginaSchema, ConsultasPaginaRefSchema)

export const openapi: OpenApiFragment = {
  tags: [
    { name: 'Consultas', description: 'Consultas de compradores y sus entregas a la agencia' },
    {
      name: 'Notificaciones',
      description:
        'Cómo recibe la agencia las consultas: webhook, ADF por HTTP o correo, y correo HTML',
    },
  ],
  params: { sid: pathParam('sid', 'Id público de la consulta') },
  operations: {
    'GET /v3/consultas': {
      operationId: 'listOperatorInquiries',
      tag: 'Consultas',
      summary: 'Consultas de un colaborador',
      description:
        'Las consultas del colaborador en todas las agencias de la aplicación (operador obligatorio).',
      parameters: listQuery.map((param) =>
        param.name === 'operador' ? { ...param, required: true } : param
      ),
      responses: { '200': page },
      problems: [400, 406],
    },
    'GET /v3/consultas/:adminmail': {
      operationId: 'listInquiries',
      tag: 'Consultas',
      summary: 'Consultas de la agencia',
      description:
        'Consultas de publicaciones de la aplicación y, si la agencia la habilitó para otras consultas, las de catálogo. ' +
        'Más recientes primero, paginadas.',
      parameters: listQuery,
      responses: { '200': page },
      problems: [400, 404, 406],
    },
    'POST /v3/consultas/:adminmail': {
      operationId: 'createInquiry',
      tag: 'Consultas',
      summary: 'Recibe una consulta',
      description:
        'Requiere el permiso consultas:crear y la aplicación vinculada a la agencia. La consulta y sus notificaciones ' +
        'se confirman en una transacción. Publicación suspendida o archivada → 409; inexistente → 400.',
      requestBody: jsonBody(
        bodyOf('ConsultaCreate', intakeValidator, {
          description:
            'Exactamente uno de ExternalId (publicación) o VersionId (catálogo); Email o Telefono.',
        })
      ),
      responses: {
        '201': negotiated('Consulta recibida', ConsultaSchema, ReferenceSchema, {
          Location: locationHeader,
        }),
      },
      problems: [400, 403, 404, 406, 409, 413, 415],
    },
    'GET /v3/consultas/:adminmail/:sid': {
      operationId: 'getInquiry',
      tag: 'Consultas',
      summary: 'Una consulta',
      description: 'La consulta por su id público.',
      responses: { '200': negotiated('Consulta', ConsultaSchema) },
      problems: [404, 406],
    },
    'GET /v3/consultas/:adminmail/:sid/entregas': {
      operationId: 'listInquiryDeliveries',
      tag: 'Consultas',
      summary: 'Entregas de la consulta',
      description: 'Las notificaciones de la consulta para la aplicación y cada intento.',
      responses: { '200': negotiated('Entregas', EntregasSchema, EntregasRefSchema) },
      problems: [404, 406],
    },
    'POST /v3/consultas/:adminmail/:sid/resendwebhook': {
      operationId: 'resendInquiryWebhook',
      tag: 'Consultas',
      summary: 'Reenvía el webhook de la consulta',
      description:
        'Mismo webhook-id, con "Reenvio": true. Solo dentro del plazo de reenvío (RESEND_WINDOW_DAYS, 7 días por ' +
        'defecto) y con un webhook activo; si no, 400. Una consulta cuyos datos del interesado se suprimieron ' +
        '(Ley 25.326, /v3/privacidad): 410.',
      responses: {
        '202': negotiated('Carga útil encolada', PublicacionConsultadaSchema, ReferenceSchema, {
          Location: { description: 'URL del Callback', schema: { type: 'string', format: 'uri' } },
        }),
      },
      problems: [400, 403, 404, 406, 410],
    },
    'GET /v3/notificaciones/:adminmail': {
      operationId: 'getNotificationConfig',
      tag: 'Notificaciones',
      summary: 'Configuración de notificaciones',
      description: 'Los canales de la agencia para la aplicación; Secret nunca se devuelve.',
      responses: { '200': negotiated('Configuración', NotificacionesConfigSchema) },
      problems: [404, 406],
    },
    'PUT /v3/notificaciones/:adminmail': {
      operationId: 'putNotificationConfig',
      tag: 'Notificaciones',
      summary: 'Reemplaza la configuración de notificaciones',
      description: 'Un canal ausente o null se elimina.',
      requestBody: jsonBody(bodyOf('NotificacionesConfigEdit', notificationConfigValidator)),
      responses: { '200': negotiated('Configuración guardada', NotificacionesConfigSchema) },
      problems: [400, 403, 406, 413, 415],
    },
    'POST /v3/notificaciones/:adminmail/prueba': {
      operationId: 'testNotificationConfig',
      tag: 'Notificaciones',
      summary: 'Envía una carga de prueba al webhook o al ADF hook',
      description:
        'Ahora, al Callback configurado (también si el canal está inactivo), con sus encabezados custom: al webhook ' +
        '(por omisión) el JSON {Tipo: "Prueba", Momento, Agencia: {AdminMail, href}, Consulta: null}, firmado con su Secret ' +
        '(Standard Webhooks); al ADF hook un documento ADF 1.0 de prueba (id source="Prueba"), sin firma como sus ' +
        'entregas. Responde el código del receptor y la demora, o el error de conexión (receptor caído o 5xx: igual ' +
        '200 aquí). No se reintenta ni se registra. Canal sin Callback configurado: 404.',
      parameters: parametersOf(notificationTestValidator, 'query', {
        canal:
          'Canal a probar: PublicacionConsultadaWebHook (por omisión) o PublicacionConsultadaAdfHook',
      }),
      responses: {
        '200': negotiated('Resultado del envío', PruebaResultadoSchema, PruebaResultadoSchema),
      },
      problems: [400, 404, 406],
    },
  },
}
