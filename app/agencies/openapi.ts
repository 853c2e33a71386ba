/*
 * What the agencies routes mean (beside routes.ts): agencies and invitations,
 * products, operators, branches and the registration page. Bodies and query
 * strings come from the validators, response shapes from the transformers.
 */
import {
  bodyOf,
  header,
  jsonBody,
  locationHeader,
  negotiated,
  open,
  parametersOf,
  pathParam,
  problems,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { listOf, ReferenceSchema } from '#core/openapi/wire'
import {
  agencyCreateValidator,
  agencyEditValidator,
  registrationValidator,
} from '#agencies/validators/agency_validators'
import { branchCreateValidator, branchEditValidator } from '#agencies/validators/branch_validators'
import {
  collaboratorCreateValidator,
  detachValidator,
  operatorEditValidator,
  operatorFilterValidator,
  operatorQueryValidator,
} from '#agencies/validators/operator_validators'
import {
  AgenciaRefSchema,
  AgenciaSchema,
  InvitacionPendienteSchema,
} from '#agencies/transformers/agency_transformer'
import { ProductosSchema } from '#agencies/transformers/products_transformer'
import { OperadorSchema } from '#agencies/transformers/operator_transformer'
import { SucursalSchema } from '#agencies/transformers/branch_transformer'

const location = { Location: locationHeader }
const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
})
const agency = (description: string) => negotiated(description, AgenciaSchema, AgenciaRefSchema)
const pending = negotiated('Invitación pendiente', InvitacionPendienteSchema, AgenciaRefSchema)
const operator = (description: string, headers = {}) =>
  negotiated(description, OperadorSchema, ReferenceSchema, headers)
const branch = (description: string, headers = {}) =>
  negotiated(description, SucursalSchema, ReferenceSchema, headers)
const operatorQuery = { operador: 'E-mail del operador' }
const show = {
  tag: 'Agencias',
  description:
    'Con la agencia registrada, su representación (200); con una invitación pendiente, su estado (202); ' +
    'invitación vencida: 410.',
  responses: { '200': agency('Agencia registrada'), '202': pending },
  problems: [404, 406, 410],
}
const AgenciaEdit = bodyOf('AgenciaEdit', agencyEditValidator)

export const openapi: OpenApiFragment = {
  tags: [
    { name: 'Agencias', description: 'Agencias de la aplicación, invitaciones y plan contratado' },
    { name: 'Operadores', description: 'Administrador y colaboradores de cada agencia' },
    { name: 'Sucursales', description: 'Sucursales de la agencia con horarios y servicios' },
    {
      name: 'Registro',
      description: 'Página que completa la persona invitada (HTML, o JSON para pruebas)',
    },
  ],
  params: {
    token: pathParam('token', 'Token del enlace de registro enviado por correo'),
    id: pathParam('id', 'Id de la sucursal', { type: 'integer', minimum: 1 }),
  },
  operations: {
    'GET /v3/agencias': {
      operationId: 'listAgencies',
      tag: 'Agencias',
      summary: 'Agencias de la aplicación',
      description: 'Las agencias vinculadas a la aplicación que llama.',
      responses: {
        '200': negotiated('Lista de agencias', listOf(AgenciaSchema), listOf(AgenciaRefSchema)),
      },
      problems: [406],
    },
    'POST /v3/agencias': {
      operationId: 'inviteAgency',
      tag: 'Agencias',
      summary: 'Invita a registrar una agencia',
      description:
        'Guarda una invitación y envía al AdminMail un correo con el enlace `{PUBLIC_URL}/registro/{token}`. ' +
        'Un segundo POST mientras está pendiente reenvía el correo. El estado se consulta con GET u OPTIONS en `Location`.',
      requestBody: jsonBody(bodyOf('AgenciaCreate', agencyCreateValidator)),
      responses: {
        '202': negotiated(
          'Invitación enviada',
          InvitacionPendienteSchema,
          AgenciaRefSchema,
          location
        ),
      },
      problems: [400, 406, 409, 413, 415],
    },
    'GET /v3/agencias/:adminmail': {
      operationId: 'getAgency',
      summary: 'La agencia, o el estado de su invitación',
      ...show,
    },
    'OPTIONS /v3/agencias/:adminmail': {
      operationId: 'getAgencyStatus',
      summary: 'Igual que GET: la agencia o el estado de su invitación',
      ...show,
    },
    'PUT /v3/agencias/:adminmail': {
      operationId: 'updateAgency',
      tag: 'Agencias',
      summary: 'Edita la agencia',
      description: 'Cambia el nombre comercial.',
      requestBody: jsonBody(AgenciaEdit),
      responses: { '200': agency('Agencia') },
      problems: [400, 403, 406, 413, 415],
    },
    'GET /v3/productos/:adminmail': {
      operationId: 'getAgencyProducts',
      tag: 'Agencias',
      summary: 'Plan contratado de la agencia',
      description:
        'Capacidad de publicaciones activas y cupos por exposición, con lo que está en uso.',
      responses: { '200': negotiated('Productos', ProductosSchema) },
      problems: [404, 406],
    },
    'GET /v3/operadores': {
      operationId: 'findOperator',
      tag: 'Operadores',
      summary: 'Un operador de cualquier agencia de la aplicación',
      description: 'Busca el operador por e-mail entre las agencias de la aplicación.',
      parameters: parametersOf(operatorQueryValidator, 'query', operatorQuery),
      responses: { '200': operator('Operador') },
      problems: [400, 404, 406],
    },
    'GET /v3/operadores/:adminmail': {
      operationId: 'listOperators',
      tag: 'Operadores',
      summary: 'Operadores de la agencia',
      description: 'El administrador y los colaboradores; con `operador`, solo ese.',
      parameters: parametersOf(operatorFilterValidator, 'query', {
        operador: 'E-mail de un colaborador',
      }),
      responses: {
        '200': negotiated('Lista de operadores', listOf(OperadorSchema), listOf(ReferenceSchema)),
      },
      problems: [400, 404, 406],
    },
    'POST /v3/operadores/:adminmail': {
      operationId: 'createOperator',
      tag: 'Operadores',
      summary: 'Agrega un colaborador',
      description: 'Crea el colaborador en la agencia; un e-mail ya registrado es 409.',
      requestBody: jsonBody(bodyOf('OperadorCreate', collaboratorCreateValidator)),
      responses: { '201': operator('Operador', location) },
      problems: [400, 403, 406, 409, 413, 415],
    },
    'PUT /v3/operadores/:adminmail': {
      operationId: 'updateOperator',
      tag: 'Operadores',
      summary: 'Edita un operador',
      description: 'Edita el operador de `operador`; por omisión, el administrador.',
      parameters: parametersOf(operatorFilterValidator, 'query', operatorQuery),
      requestBody: jsonBody(bodyOf('OperadorEdit', operatorEditValidator)),
      responses: { '200': operator('Operador') },
      problems: [400, 403, 404, 406, 413, 415],
    },
    'PATCH /v3/operadores/:adminmail/desasociar': {
      operationId: 'detachOperator',
      tag: 'Operadores',
      summary: 'Desasocia un colaborador',
      description: 'Sus publicaciones, consultas y notificaciones pasan al operador de destino.',
      parameters: parametersOf(detachValidator, 'query', {
        operador: 'Colaborador a desasociar',
        operadorDestino: 'Colaborador que recibe',
      }),
      responses: { '204': { description: 'Desasociado' } },
      problems: [400, 403],
    },
    'GET /v3/sucursales/:adminmail': {
      operationId: 'listBranches',
      tag: 'Sucursales',
      summary: 'Sucursales de la agencia',
      description: 'Todas las sucursales de la agencia.',
      responses: {
        '200': negotiated('Lista de sucursales', listOf(SucursalSchema), listOf(ReferenceSchema)),
      },
      problems: [404, 406],
    },
    'POST /v3/sucursales/:adminmail': {
      operationId: 'createBranch',
      tag: 'Sucursales',
      summary: 'Crea una sucursal',
      description: 'Descripcion es obligatoria; los horarios aceptan HH:MM o HH:MM:SS.',
      requestBody: jsonBody(bodyOf('SucursalCreate', branchCreateValidator)),
      responses: { '201': branch('Sucursal', location) },
      problems: [400, 403, 406, 413, 415],
    },
    'GET /v3/sucursales/:adminmail/:id': {
      operationId: 'getBranch',
      tag: 'Sucursales',
      summary: 'Una sucursal',
      description: 'La sucursal por id.',
      responses: { '200': branch('Sucursal') },
      problems: [400, 404, 406],
    },
    'PUT /v3/sucursales/:adminmail/:id': {
      operationId: 'updateBranch',
      tag: 'Sucursales',
      summary: 'Edita una sucursal',
      description: 'Los campos ausentes no cambian.',
      requestBody: jsonBody(bodyOf('SucursalEdit', branchEditValidator)),
      responses: { '200': branch('Sucursal') },
      problems: [400, 403, 404, 406, 413, 415],
    },
    'GET /registro/:token': {
      operationId: 'getRegistrationPage',
      tag: 'Registro',
      summary: 'Página de registro de la agencia invitada',
      description: 'Formulario HTML con los datos de la invitación.',
      security: open,
      responses: {
        '200': html('Formulario'),
        '404': html('Enlace desconocido'),
        '410': html('Enlace usado o vencido'),
      },
    },
    'POST /registro/:token': {
      operationId: 'completeRegistration',
      tag: 'Registro',
      summary: 'Completa el registro',
      description:
        'Formulario (respuestas HTML) o JSON (`Content-Type` o `Accept` JSON: la referencia de la agencia o un problema).',
      security: open,
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: bodyOf('Registro', registrationValidator),
          },
          'application/json': { schema: bodyOf('Registro', registrationValidator) },
        },
      },
      responses: {
        '201': {
          description: 'Registrada: página HTML, o la referencia de la agencia en JSON',
          headers: {
            Location: header('URL de la agencia (solo con la respuesta JSON)', {
              type: 'string',
              format: 'uri-reference',
            }),
          },
          content: {
            'text/html': { schema: { type: 'string' } },
            'application/json': { schema: AgenciaRefSchema },
          },
        },
        ...Object.fromEntries(
          Object.entries(problems(400, 404, 410)).map(([status, response]) => [
            status,
            {
              ...response,
              description: `${response.description} (página HTML o problema JSON)`,
              content: { ...response.content, 'text/html': { schema: { type: 'string' } } },
            },
          ])
        ),
      },
    },
  },
}
