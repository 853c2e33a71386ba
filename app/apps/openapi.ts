/*
 * What the app-subscription routes mean (docs/design.md §6), beside routes.ts.
 */
import {
  bodyOf,
  header,
  parametersOf,
  jsonBody,
  locationHeader,
  negotiated,
  pathParam,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { listOf } from '#core/openapi/wire'
import { appWebhookValidator } from '#apps/validators/app_webhook_validator'
import { APP_TOPICS } from '#apps/topics'
import { AppWebhookRefSchema, AppWebhookSchema } from '#apps/transformers/app_webhook_transformer'
import { eventHistoryValidator } from '#apps/validators/event_history_validator'
import { EventosSchema, PruebaResultadoSchema } from '#apps/transformers/app_event_transformer'
import { rotateCredentialValidator } from '#apps/validators/credentials_validator'
import { AplicacionSchema } from '#apps/transformers/application_transformer'
import { ReferenceSchema } from '#core/openapi/wire'
import {
  CredencialesPaginaRefSchema,
  CredencialesPaginaSchema,
  CredencialNuevaSchema,
  CredencialSchema,
  CredencialRefSchema,
} from '#apps/transformers/credential_transformer'
import { credentialListValidator } from '#apps/validators/credentials_validator'
import { MAX_LIVE_TOKENS } from '#apps/services/issue_token'

const AppWebhookEdit = bodyOf('AppWebhookEdit', appWebhookValidator)
const RotacionCredencial = bodyOf('RotacionCredencial', rotateCredentialValidator)
const webhook = (description: string, headers = {}) =>
  negotiated(description, AppWebhookSchema, AppWebhookRefSchema, headers)

export const openapi: OpenApiFragment = {
  tags: [
    {
      name: 'Aplicación',
      description: 'Suscripciones de la aplicación a eventos (webhooks Standard Webhooks)',
    },
    {
      name: 'Credenciales',
      description: 'Los tokens de la aplicación: listarlos sin secretos y rotar el que se usa',
    },
  ],
  params: {
    topic: pathParam('topic', 'Tópico de eventos de la aplicación', {
      type: 'string',
      enum: [...APP_TOPICS],
    }),
    id: pathParam('id', 'Id del token', { type: 'integer', minimum: 1, maximum: 2_147_483_647 }),
  },
  operations: {
    'GET /v3/appnotificaciones': {
      operationId: 'listAppSubscriptions',
      tag: 'Aplicación',
      summary: 'Suscripciones de la aplicación',
      description: 'Tópicos y enlaces: GET para los suscriptos, PUT para los demás.',
      responses: {
        '200': negotiated('Suscripciones', listOf(AppWebhookSchema), listOf(AppWebhookRefSchema)),
      },
      problems: [406],
    },
    'GET /v3/appnotificaciones/:topic': {
      operationId: 'getAppSubscription',
      tag: 'Aplicación',
      summary: 'Suscripción a un tópico',
      description: 'El webhook del tópico; sin suscripción, 404.',
      responses: { '200': webhook('Suscripción') },
      problems: [404, 406],
    },
    'POST /v3/appnotificaciones/:topic': {
      operationId: 'createAppSubscription',
      tag: 'Aplicación',
      summary: 'Crea la suscripción a un tópico',
      description: 'Si ya existe, 409 (usar PUT para reemplazarla).',
      requestBody: jsonBody(AppWebhookEdit),
      responses: { '201': webhook('Creada', { Location: locationHeader }) },
      problems: [400, 404, 406, 409, 413, 415],
    },
    'PUT /v3/appnotificaciones/:topic': {
      operationId: 'putAppSubscription',
      tag: 'Aplicación',
      summary: 'Crea o reemplaza la suscripción a un tópico',
      description: 'Secret null o ausente conserva la clave guardada.',
      requestBody: jsonBody(AppWebhookEdit),
      responses: { '200': webhook('Guardada') },
      problems: [400, 404, 406, 413, 415],
    },
    'POST /v3/appnotificaciones/:topic/prueba': {
      operationId: 'testAppSubscription',
      tag: 'Aplicación',
      summary: 'Envía un evento Prueba a la suscripción',
      description:
        'Un evento Prueba firmado, ahora, al Callback (también si la suscripción está inactiva); responde el código ' +
        'del receptor y la demora, o el error de conexión. No se reintenta ni queda en /v3/eventos. Sin suscripción, 404.',
      responses: {
        '200': negotiated('Resultado del envío', PruebaResultadoSchema, PruebaResultadoSchema),
      },
      problems: [404, 406],
    },
    'GET /v3/eventos': {
      operationId: 'listAppEvents',
      tag: 'Aplicación',
      summary: 'Historial de eventos de la aplicación',
      description:
        'Los eventos dirigidos a la aplicación en los últimos 30 días, del más antiguo al más reciente, 100 por ' +
        'página; `_links.next` lleva el cursor (desde) de la página siguiente. `Id` es el webhook-id de su entrega.',
      parameters: parametersOf(eventHistoryValidator, 'query', {
        desde: 'Cursor opaco tomado de _links.next',
        topico: 'Solo los eventos de este tópico',
      }),
      responses: { '200': negotiated('Eventos', EventosSchema, EventosSchema) },
      problems: [400, 406],
    },
    'GET /v3/aplicacion': {
      operationId: 'getApplication',
      tag: 'Aplicación',
      summary: 'La aplicación que llama',
      description:
        'Id, nombre y permisos (Habilidades) de la aplicación del token. Los permisos los cambia un operador ' +
        '(ace app:ability) y rigen en a lo sumo 5 s.',
      responses: { '200': negotiated('Aplicación', AplicacionSchema, ReferenceSchema) },
      problems: [406],
    },
    'GET /v3/credenciales': {
      operationId: 'listCredentials',
      tag: 'Credenciales',
      summary: 'Tokens vigentes de la aplicación',
      description:
        'Los tokens que todavía autentican (ni vencidos ni revocados), del más antiguo al más nuevo, de a 100 ' +
        'por página. Nunca incluye un secreto. UltimoUso tiene resolución de un minuto.',
      parameters: parametersOf(credentialListValidator, 'query', {
        pagina: 'Página (1..99), de 100 tokens',
      }),
      responses: {
        '200': negotiated('Tokens', CredencialesPaginaSchema, CredencialesPaginaRefSchema),
      },
      problems: [400, 406],
    },
    'GET /v3/credenciales/:id': {
      operationId: 'getCredential',
      tag: 'Credenciales',
      summary: 'Un token vigente de la aplicación',
      description: 'Sin secreto. Un token de otra aplicación, vencido o revocado: 404.',
      responses: { '200': negotiated('Token', CredencialSchema, CredencialRefSchema) },
      problems: [404, 406],
    },
    'POST /v3/credenciales': {
      operationId: 'rotateCredential',
      tag: 'Credenciales',
      summary: 'Emite un token nuevo y hace vencer el usado',
      description:
        'Un token nuevo, mostrado solo en esta respuesta (Cache-Control: no-store): sin vencimiento, o el del ' +
        'token usado si este vence (un token nunca emite otro que lo sobreviva). El token usado en la llamada ' +
        'vence a los AnteriorExpiraEnSegundos (por omisión 86400; 0: ya), nunca después de lo que ya vencía. ' +
        `Una aplicación tiene a lo sumo ${MAX_LIVE_TOKENS} tokens vigentes: si la rotación dejara más, 409. Sin ` +
        'Idempotency-Key: un secreto no se guarda para repetirlo; un reintento emite otro token, que se ve en la ' +
        'lista.',
      requestBody: jsonBody(RotacionCredencial, false),
      responses: {
        '201': negotiated('Token emitido', CredencialNuevaSchema, CredencialNuevaSchema, {
          'Location': locationHeader,
          'Cache-Control': header(
            'La respuesta lleva un secreto: ningún caché la guarda',
            { type: 'string', const: 'no-store' },
            true
          ),
        }),
      },
      problems: [400, 406, 409, 413, 415],
      idempotent: false,
    },
  },
}
