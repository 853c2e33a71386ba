/*
 * OpenAPI fragment of the agencies module: agencies and invitations,
 * products, operators, branches and the registration page.
 */
import {
  jsonBody,
  listOf,
  negotiated,
  open,
  pathParam,
  problems,
  queryParam,
  ref,
  type OpenApiFragment,
} from '#core/openapi/helpers'

const adminmail = pathParam(
  'adminmail',
  'E-mail del administrador de la agencia (sin distinguir mayúsculas)',
  {
    type: 'string',
    format: 'email',
  }
)
const token = pathParam('token', 'Token del enlace de registro enviado por correo')
const branchId = pathParam('id', 'Id de la sucursal', { type: 'integer' })
const operadorOptional = queryParam('operador', 'E-mail de un colaborador', {
  type: 'string',
  format: 'email',
})
const operadorRequired = queryParam(
  'operador',
  'E-mail del operador',
  { type: 'string', format: 'email' },
  true
)
const str = (maxLength: number, minLength = 0) => ({
  type: ['string', 'null'],
  minLength,
  maxLength,
})
const tel = {
  type: ['string', 'null'],
  minLength: 8,
  maxLength: 20,
  examples: ['+5491155550000', '011 4555-0000'],
}
const group = ref('LinkGroup')
const hours = {
  type: ['object', 'null'],
  properties: {
    Desde: { type: 'string', examples: ['09:00:00'] },
    Hasta: { type: 'string', examples: ['18:00:00'] },
  },
}
const statusDoc = {
  '202': negotiated('Invitación pendiente', ref('InvitacionPendiente')),
}

export const openapi: OpenApiFragment = {
  paths: {
    '/v3/agencias': {
      get: {
        tags: ['Agencias'],
        summary: 'Agencias de la aplicación',
        responses: {
          '200': negotiated('Lista de agencias', listOf(ref('Agencia')), listOf(ref('AgenciaRef'))),
          ...problems(406),
        },
      },
      post: {
        tags: ['Agencias'],
        summary: 'Invita a registrar una agencia',
        description:
          'Guarda una invitación y envía al AdminMail un correo con el enlace `{PUBLIC_URL}/registro/{token}`. ' +
          'Un segundo POST mientras está pendiente reenvía el correo. El estado se consulta con GET u OPTIONS en `Location`.',
        requestBody: jsonBody(ref('AgenciaCreate')),
        responses: {
          '202': {
            ...negotiated('Invitación enviada', ref('InvitacionPendiente')),
            headers: { Location: { schema: { type: 'string', format: 'uri' } } },
          },
          ...problems(400, 409, 415),
        },
      },
    },
    '/v3/agencias/{adminmail}': {
      get: {
        tags: ['Agencias'],
        summary: 'La agencia, o el estado de su invitación',
        parameters: [adminmail],
        responses: {
          '200': negotiated('Agencia registrada', ref('Agencia'), ref('AgenciaRef')),
          ...statusDoc,
          ...problems(404, 406, 410),
        },
      },
      options: {
        tags: ['Agencias'],
        summary: 'Igual que GET: la agencia o el estado de su invitación',
        parameters: [adminmail],
        responses: {
          '200': negotiated('Agencia registrada', ref('Agencia'), ref('AgenciaRef')),
          ...statusDoc,
          ...problems(404, 406, 410),
        },
      },
      put: {
        tags: ['Agencias'],
        summary: 'Edita la agencia',
        parameters: [adminmail],
        requestBody: jsonBody(ref('AgenciaEdit')),
        responses: {
          '200': negotiated('Agencia', ref('Agencia'), ref('AgenciaRef')),
          ...problems(400, 403, 406, 415),
        },
      },
    },
    '/v3/productos/{adminmail}': {
      get: {
        tags: ['Agencias'],
        summary: 'Plan contratado: capacidad de publicaciones activas y cupos por exposición',
        parameters: [adminmail],
        responses: { '200': negotiated('Productos', ref('Productos')), ...problems(404, 406) },
      },
    },
    '/v3/operadores': {
      get: {
        tags: ['Operadores'],
        summary: 'Un operador de cualquier agencia de la aplicación',
        parameters: [operadorRequired],
        responses: { '200': negotiated('Operador', ref('Operador')), ...problems(400, 404, 406) },
      },
    },
    '/v3/operadores/{adminmail}': {
      get: {
        tags: ['Operadores'],
        summary: 'Operadores de la agencia',
        parameters: [adminmail, operadorOptional],
        responses: {
          '200': negotiated(
            'Lista de operadores',
            listOf(ref('Operador')),
            listOf(ref('Reference'))
          ),
          ...problems(400, 404, 406),
        },
      },
      post: {
        tags: ['Operadores'],
        summary: 'Agrega un colaborador',
        parameters: [adminmail],
        requestBody: jsonBody(ref('OperadorCreate')),
        responses: {
          '201': {
            ...negotiated('Operador', ref('Operador')),
            headers: { Location: { schema: { type: 'string' } } },
          },
          ...problems(400, 403, 409, 415),
        },
      },
      put: {
        tags: ['Operadores'],
        summary: 'Edita un operador (por omisión, el administrador)',
        parameters: [adminmail, operadorOptional],
        requestBody: jsonBody(ref('OperadorEdit')),
        responses: {
          '200': negotiated('Operador', ref('Operador')),
          ...problems(400, 403, 404, 406, 415),
        },
      },
    },
    '/v3/operadores/{adminmail}/desasociar': {
      patch: {
        tags: ['Operadores'],
        summary:
          'Desasocia un colaborador; sus publicaciones, consultas y notificaciones pasan al operador de destino',
        parameters: [
          adminmail,
          queryParam(
            'operador',
            'Colaborador a desasociar',
            { type: 'string', format: 'email' },
            true
          ),
          queryParam(
            'operadorDestino',
            'Colaborador que recibe',
            { type: 'string', format: 'email' },
            true
          ),
        ],
        responses: { '204': { description: 'Desasociado' }, ...problems(400, 403) },
      },
    },
    '/v3/sucursales/{adminmail}': {
      get: {
        tags: ['Sucursales'],
        summary: 'Sucursales de la agencia',
        parameters: [adminmail],
        responses: {
          '200': negotiated(
            'Lista de sucursales',
            listOf(ref('Sucursal')),
            listOf(ref('Reference'))
          ),
          ...problems(404, 406),
        },
      },
      post: {
        tags: ['Sucursales'],
        summary: 'Crea una sucursal',
        parameters: [adminmail],
        requestBody: jsonBody(ref('SucursalEdit')),
        responses: {
          '201': {
            ...negotiated('Sucursal', ref('Sucursal')),
            headers: { Location: { schema: { type: 'string' } } },
          },
          ...problems(400, 403, 415),
        },
      },
    },
    '/v3/sucursales/{adminmail}/{id}': {
      get: {
        tags: ['Sucursales'],
        summary: 'Una sucursal',
        parameters: [adminmail, branchId],
        responses: { '200': negotiated('Sucursal', ref('Sucursal')), ...problems(400, 404, 406) },
      },
      put: {
        tags: ['Sucursales'],
        summary: 'Edita una sucursal (los campos ausentes no cambian)',
        parameters: [adminmail, branchId],
        requestBody: jsonBody(ref('SucursalEdit')),
        responses: {
          '200': negotiated('Sucursal', ref('Sucursal')),
          ...problems(400, 403, 404, 415),
        },
      },
    },
    '/registro/{token}': {
      get: {
        tags: ['Registro'],
        summary: 'Página de registro de la agencia invitada (HTML)',
        security: open,
        parameters: [token],
        responses: {
          '200': { description: 'Formulario', content: { 'text/html': {} } },
          '404': { description: 'Enlace desconocido', content: { 'text/html': {} } },
          '410': { description: 'Enlace usado o vencido', content: { 'text/html': {} } },
        },
      },
      post: {
        tags: ['Registro'],
        summary: 'Completa el registro (formulario o JSON)',
        security: open,
        parameters: [token],
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: ref('Registro') },
            'application/json': { schema: ref('Registro') },
          },
        },
        responses: {
          '201': {
            description: 'Registrada: página HTML, o la referencia de la agencia en JSON',
            headers: { Location: { schema: { type: 'string' } } },
          },
          '400': {
            description:
              'Formulario inválido: la página con los mensajes junto a cada campo, o un problema JSON',
          },
          '404': { description: 'Enlace desconocido' },
          '410': { description: 'Enlace usado o vencido' },
        },
      },
    },
  },
  schemas: {
    AgenciaCreate: {
      type: 'object',
      required: ['AdminMail', 'NombreComercial'],
      properties: {
        AdminMail: { type: 'string', format: 'email', minLength: 8, maxLength: 50 },
        NombreComercial: { type: 'string', minLength: 3, maxLength: 100 },
        Region: { ...str(200), description: 'id, URL de la API, ruta, nombre o código ISO 3166-2' },
        Ciudad: { ...str(200), description: 'id, URL de la API, ruta, nombre completo o parte' },
        Direccion: str(200),
        Telefono: { ...tel, description: '`+{país}{área}{número}` se registra como WhatsApp' },
        AdminNombre: str(50),
        AdminApellido: str(50),
      },
    },
    AgenciaEdit: {
      type: 'object',
      required: ['NombreComercial'],
      properties: { NombreComercial: { type: 'string', minLength: 3, maxLength: 100 } },
    },
    Agencia: {
      type: 'object',
      properties: {
        AdminMail: { type: 'string', format: 'email' },
        NombreComercial: { type: 'string' },
        Productos: group,
        Operadores: group,
        Sucursales: group,
        Notificaciones: group,
        Publicaciones: group,
        Consultas: group,
        Visitas: group,
        _links: ref('Links'),
      },
    },
    AgenciaRef: {
      type: 'object',
      properties: {
        AdminMail: { type: 'string' },
        href: { type: 'string' },
        title: { type: 'string' },
      },
    },
    InvitacionPendiente: {
      type: 'object',
      properties: {
        AdminMail: { type: 'string' },
        NombreComercial: { type: 'string' },
        Estado: { type: 'string', enum: ['Pendiente'] },
        Enviada: { type: 'string', format: 'date-time' },
        Vence: { type: 'string', format: 'date-time' },
        _links: ref('Links'),
      },
    },
    Productos: {
      type: 'object',
      properties: {
        Capacidad: { type: 'integer' },
        Usadas: { type: 'integer' },
        Disponibles: { type: 'integer' },
        Exposiciones: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              Cupo: { type: 'integer' },
              Usadas: { type: 'integer' },
              Disponibles: { type: 'integer' },
            },
          },
        },
        Suspendida: { type: 'boolean' },
        _links: ref('Links'),
      },
    },
    Operador: {
      type: 'object',
      properties: {
        Nombre: { type: 'string' },
        Apellido: { type: 'string' },
        Email: { type: 'string', format: 'email' },
        Telefonos: { type: 'array', items: { type: 'string' } },
        Direcciones: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              Region: { type: 'string' },
              Ciudad: { type: 'string' },
              Direccion: { type: 'string' },
            },
          },
        },
        EsAdministradorAgencia: { type: 'boolean' },
        Publicaciones: group,
        Consultas: group,
        _links: ref('Links'),
      },
    },
    OperadorEdit: {
      type: 'object',
      properties: {
        Nombre: str(50),
        Apellido: str(50),
        TelefonoLaboral: tel,
        WhatsApp: { ...tel, pattern: '^\\+[1-9][0-9]{6,18}$' },
        Region: str(200),
        Ciudad: str(200),
        Direccion: str(200),
      },
    },
    OperadorCreate: {
      type: 'object',
      required: ['Email'],
      properties: {
        Email: { type: 'string', format: 'email', maxLength: 50 },
        Nombre: str(50),
        Apellido: str(50),
        Telefonos: {
          type: 'array',
          maxItems: 5,
          items: { type: 'string', minLength: 8, maxLength: 20 },
        },
      },
    },
    Sucursal: {
      type: 'object',
      properties: {
        Descripcion: { type: 'string' },
        Email: { type: ['string', 'null'], format: 'email' },
        Telefono: { type: ['string', 'null'] },
        Region: { type: 'string' },
        Ciudad: { type: 'string' },
        Direccion: { type: 'string' },
        Comercial: { type: 'boolean' },
        TallerMecanico: { type: 'boolean' },
        Autopartes: { type: 'boolean' },
        Laborable: hours,
        PreFestivo: hours,
        Festivo: hours,
        ResponsableLeadsPostVenta: { type: ['string', 'null'], format: 'email' },
        _links: ref('Links'),
      },
    },
    SucursalEdit: {
      type: 'object',
      description: 'Descripcion es obligatoria al crear.',
      properties: {
        Descripcion: { type: 'string', minLength: 1, maxLength: 100 },
        Email: { type: ['string', 'null'], format: 'email' },
        Telefono: tel,
        Region: str(200),
        Ciudad: str(200),
        Direccion: str(200),
        Comercial: { type: 'boolean' },
        TallerMecanico: { type: 'boolean' },
        Autopartes: { type: 'boolean' },
        Laborable: hours,
        PreFestivo: hours,
        Festivo: hours,
        ResponsableLeadsPostVenta: { type: ['string', 'null'], format: 'email' },
      },
    },
    Registro: {
      type: 'object',
      required: ['AdminNombre', 'AdminApellido', 'Password'],
      properties: {
        AdminNombre: { type: 'string', minLength: 1, maxLength: 50 },
        AdminApellido: { type: 'string', minLength: 1, maxLength: 50 },
        Password: { type: 'string', minLength: 10, maxLength: 200 },
      },
    },
  },
}
