/*
 * OpenAPI of the listings module (docs/spec.md §4.1, docs/design.md §6) and the public photo files.
 */
import {
  jsonBody,
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
const externalid = pathParam(
  'externalid',
  'ExternalId de la publicación (sin distinguir mayúsculas)',
  {
    type: 'string',
    pattern: '^[A-Za-z0-9._~-]{2,255}$',
  }
)
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  description:
    'ETag de la publicación (comparación fuerte) o `*`; sin él la escritura procede. No coincide → 412.',
  schema: { type: 'string' },
}
const etagHeader = {
  ETag: { description: 'ETag fuerte derivado de la revisión', schema: { type: 'string' } },
}

const listing = (description: string) => ({
  ...negotiated(description, ref('Publicacion'), ref('PublicacionRef')),
  headers: { ...negotiated('', {}).headers, ...etagHeader },
})

const valor = { oneOf: [ref('Valor'), { type: 'null' }] }
const nullableString = (maxLength?: number) => ({
  type: ['string', 'null'],
  ...(maxLength ? { maxLength } : {}),
})

const editProperties = {
  RefStock: nullableString(25),
  Activa: {
    type: ['boolean', 'null'],
    description: 'PUT: por omisión true. PATCH: null deja el estado.',
  },
  Exposicion: { type: ['string', 'null'], maxLength: 5, enum: ['Alta', 'Media', 'Baja', '', null] },
  OperadorResponsable: {
    type: ['string', 'null'],
    maxLength: 50,
    description: 'Si no es colaborador se conserva el actual',
  },
  VersionYear: { type: 'integer', minimum: 1908, maximum: 2050 },
  Kilometraje: {
    type: 'integer',
    minimum: 0,
    maximum: 999000,
    description:
      '0 solo para vehículos nuevos (año actual o anterior); más de 100000 km por año de antigüedad se rechaza por sospechoso',
  },
  Color: { type: 'string', minLength: 1, description: 'Se trunca a 50 caracteres' },
  Descripcion: nullableString(2000),
  DatosTecnicosCustom: {
    type: ['array', 'null'],
    maxItems: 50,
    description: 'Solo para versiones desconocidas por el catálogo',
    items: ref('DatoTecnico'),
  },
  Precio: valor,
  Adelanto: valor,
  Cuota: valor,
  Fotos: {
    type: ['array', 'null'],
    maxItems: 50,
    items: { type: 'string', format: 'uri' },
    description:
      'URLs públicas http(s); cada imagen ≥ 640×360 px, ≤ 15 MiB. Se ignora si la cantidad es igual a la actual. Obligatoria para usados.',
  },
  AplicaCertificadoGarantiaUsado: { type: ['boolean', 'null'], description: 'Solo para usados' },
  Locacion: {
    type: ['object', 'null'],
    properties: {
      Region: nullableString(200),
      Ciudad: nullableString(200),
      Direccion: nullableString(200),
    },
  },
  Telefono: {
    type: ['string', 'null'],
    description: 'Uno de los teléfonos del operador responsable; null = el primero',
  },
}

const writeResponses = (description: string) => ({
  '200': listing(description),
  ...problems(400, 403, 406, 409, 412, 415),
})

export const openapi: OpenApiFragment = {
  paths: {
    '/v3/publicaciones/{adminmail}': {
      post: {
        tags: ['Publicaciones'],
        summary: 'Crear una publicación',
        parameters: [adminmail],
        requestBody: jsonBody(ref('PublicacionCreate')),
        responses: {
          '201': {
            ...listing('Creada'),
            headers: { ...listing('').headers, Location: { schema: { type: 'string' } } },
          },
          ...problems(400, 403, 406, 409, 415),
        },
      },
      get: {
        tags: ['Publicaciones'],
        summary: 'Publicaciones de la agencia (paginadas)',
        parameters: [
          adminmail,
          queryParam('operador', 'Solo las de este colaborador', {
            type: 'string',
            format: 'email',
          }),
          queryParam(
            'estado',
            'Activa, Suspendida o Archivada (por omisión, todas menos las archivadas)',
            {
              type: 'string',
              enum: ['Activa', 'Suspendida', 'Archivada'],
            }
          ),
          queryParam('pagina', 'Página (1..99, 100 por página)', {
            type: 'integer',
            minimum: 1,
            maximum: 99,
          }),
        ],
        responses: {
          '200': negotiated(
            'Página de publicaciones',
            ref('PaginaPublicaciones'),
            ref('PaginaPublicaciones')
          ),
          ...problems(400, 404, 406),
        },
      },
    },
    '/v3/publicaciones/{adminmail}/{externalid}': {
      get: {
        tags: ['Publicaciones'],
        summary: 'Una publicación',
        parameters: [
          adminmail,
          externalid,
          { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': listing('Publicación'),
          '304': { description: 'Sin cambios respecto del ETag enviado' },
          ...problems(400, 404, 406),
        },
      },
      put: {
        tags: ['Publicaciones'],
        summary: 'Editar una publicación (PublicacionEdit)',
        parameters: [adminmail, externalid, ifMatch],
        requestBody: jsonBody(ref('PublicacionEdit')),
        responses: writeResponses('Publicación editada'),
      },
      patch: {
        tags: ['Publicaciones'],
        summary: 'Cambiar precios y, opcionalmente, el estado (PublicacionPartialEdit)',
        parameters: [adminmail, externalid, ifMatch],
        requestBody: jsonBody(ref('PublicacionPartialEdit')),
        responses: writeResponses('Publicación editada'),
      },
      delete: {
        tags: ['Publicaciones'],
        summary: 'Archivar una publicación (terminal: después todo cambio es 409)',
        parameters: [adminmail, externalid, ifMatch],
        responses: writeResponses('Publicación archivada'),
      },
    },
    '/v3/publicaciones/{adminmail}/{externalid}/suspender': {
      patch: {
        tags: ['Publicaciones'],
        summary: 'Suspender una publicación',
        parameters: [adminmail, externalid, ifMatch],
        responses: writeResponses('Publicación suspendida'),
      },
    },
    '/v3/publicaciones/{adminmail}/{externalid}/activar': {
      patch: {
        tags: ['Publicaciones'],
        summary:
          'Activar una publicación (409 si el plan no tiene lugar o la agencia o el operador están suspendidos)',
        parameters: [adminmail, externalid, ifMatch],
        responses: writeResponses('Publicación activada'),
      },
    },
    '/v3/publicaciones/{adminmail}/{externalid}/fotos': {
      get: {
        tags: ['Publicaciones'],
        summary: 'Fotos de la publicación con su estado de procesamiento',
        parameters: [adminmail, externalid],
        responses: {
          '200': negotiated('Fotos', ref('ListaFotos')),
          ...problems(400, 404, 406),
        },
      },
    },
    '/fotos/{listing}/{file}': {
      get: {
        tags: ['Publicaciones'],
        summary: 'Archivo de una foto procesada (JPEG, inmutable, sin credenciales)',
        security: open,
        parameters: [
          pathParam('listing', 'Id interno de la publicación'),
          pathParam('file', 'Nombre del archivo'),
        ],
        responses: {
          '200': {
            description: 'JPEG',
            headers: {
              'Cache-Control': {
                schema: { type: 'string', examples: ['public, max-age=31536000, immutable'] },
              },
            },
            content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
          },
          '404': {
            description: 'No existe',
            content: { 'application/problem+json': { schema: ref('Problem') } },
          },
        },
      },
    },
  },
  schemas: {
    DatoTecnico: {
      type: 'object',
      required: ['Nombre', 'Valor'],
      properties: {
        Nombre: { type: 'string', minLength: 1, maxLength: 50 },
        Valor: { type: 'string', maxLength: 200 },
      },
    },
    PublicacionEdit: { type: 'object', properties: editProperties },
    PublicacionCreate: {
      type: 'object',
      required: ['ExternalId', 'Marca', 'Modelo', 'Version', 'Kilometraje'],
      properties: {
        ExternalId: { type: 'string', pattern: '^[A-Za-z0-9._~-]{2,255}$' },
        Marca: { type: 'string', description: 'Id, href, nombre o codename del catálogo' },
        Modelo: { type: 'string', description: 'Id, href, nombre o codename del catálogo' },
        Version: {
          type: 'string',
          description:
            'Id, href, nombre o codename; una versión desconocida conserva su nombre y admite DatosTecnicosCustom',
        },
        Transmision: {
          type: ['string', 'null'],
          enum: ['Manual', 'Automática', 'Automatizada', 'CVT', null],
        },
        Propulsion: {
          type: ['string', 'null'],
          enum: ['Nafta', 'Diésel', 'GNC', 'Híbrido', 'Híbrido enchufable', 'Eléctrico', null],
        },
        ...editProperties,
      },
    },
    PublicacionPartialEdit: {
      type: 'object',
      properties: {
        Precio: valor,
        Adelanto: valor,
        Cuota: valor,
        Activa: { type: ['boolean', 'null'] },
      },
    },
    Publicacion: {
      type: 'object',
      properties: {
        ExternalId: { type: 'string' },
        RefStock: { type: ['string', 'null'] },
        EstadoActual: { type: 'string', enum: ['Activa', 'Suspendida', 'Archivada'] },
        Exposicion: { type: 'string', enum: ['Alta', 'Media', 'Baja'] },
        OperadorResponsable: { type: 'string', format: 'email' },
        Marca: { type: 'string' },
        Modelo: { type: 'string' },
        Version: { type: 'string' },
        VersionYear: { type: 'integer' },
        Transmision: { type: 'string' },
        Propulsion: { type: 'string' },
        Kilometraje: { type: 'integer' },
        Color: { type: ['string', 'null'] },
        Descripcion: { type: ['string', 'null'] },
        DatosTecnicosCustom: { type: 'array', items: ref('DatoTecnico') },
        Precio: valor,
        Adelanto: valor,
        Cuota: valor,
        Fotos: {
          type: 'array',
          items: { type: 'string', format: 'uri' },
          description: 'URLs del servicio de las fotos procesadas, en orden',
        },
        CertificadoDeGarantiaUsado: {
          oneOf: [{ type: 'null' }, { type: 'object', properties: { Aplica: { const: true } } }],
          description:
            'Objeto solo cuando el certificado aplica (usado y AplicaCertificadoGarantiaUsado)',
        },
        Locacion: {
          type: 'object',
          properties: {
            Region: { type: ['string', 'null'] },
            Ciudad: { type: ['string', 'null'] },
            Direccion: { type: ['string', 'null'] },
          },
        },
        Telefono: { type: ['string', 'null'] },
        Consultas: ref('LinkGroup'),
        _links: ref('Links'),
      },
    },
    PublicacionRef: {
      type: 'object',
      required: ['etag', 'ExternalId', 'EstadoActual', 'href', 'title'],
      properties: {
        etag: { type: 'string' },
        ExternalId: { type: 'string' },
        EstadoActual: { type: 'string' },
        href: { type: 'string' },
        title: { type: 'string' },
      },
    },
    PaginaPublicaciones: {
      type: 'object',
      properties: {
        Pagina: { type: 'integer' },
        Total: { type: 'integer' },
        PerPagina: { type: 'integer' },
        _links: ref('Links'),
        _entries: { type: 'array', items: { oneOf: [ref('Publicacion'), ref('PublicacionRef')] } },
      },
    },
    ListaFotos: {
      type: 'object',
      properties: {
        _links: ref('Links'),
        _entries: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              Posicion: { type: 'integer' },
              Origen: { type: 'string', format: 'uri' },
              Estado: { type: 'string', enum: ['Pendiente', 'Lista', 'Rechazada'] },
              Motivo: { type: ['string', 'null'] },
              Url: { type: ['string', 'null'], format: 'uri' },
              Miniatura: { type: ['string', 'null'], format: 'uri' },
              Ancho: { type: ['integer', 'null'] },
              Alto: { type: ['integer', 'null'] },
            },
          },
        },
      },
    },
  },
}
