import {
  listOf,
  negotiated,
  open,
  pathParam,
  problems,
  queryParam,
  ref,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { MAX_SPAN_DAYS } from '#buyers/validators/visits_query'

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
})

const slug = pathParam(
  'slug',
  'Identificador público de la publicación (`_links.publica` de la Publicacion)'
)
const modelId = pathParam('id', 'Id del modelo del catálogo', { type: 'integer', format: 'int32' })

const formFields = {
  Nombre: { type: 'string', maxLength: 50 },
  Apellido: { type: 'string', maxLength: 50 },
  Email: { type: 'string', format: 'email', maxLength: 100 },
  Telefono: { type: 'string', minLength: 6, maxLength: 30 },
  Comentario: { type: 'string', maxLength: 2000 },
  Interes: { type: 'string', enum: ['Compra', 'Financiacion', 'Permuta', 'PruebaDeManejo'] },
  _csrf: { type: 'string', description: 'Token CSRF del formulario (sesión en cookie)' },
  Sitio: { type: 'string', description: 'Trampa para robots: debe llegar vacío' },
}

const form = (extra: Record<string, unknown> = {}) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', properties: { ...formFields, ...extra } },
    },
  },
})

const formResponses = {
  '303': {
    description: 'Consulta recibida: redirige a la página de confirmación (Post/Redirect/Get)',
  },
  '400': html('Datos inválidos: el formulario con los mensajes junto a cada campo'),
  '403': html('Token CSRF ausente o inválido'),
  '404': html('No existe'),
  '429': html('Demasiadas consultas desde la misma IP (10 cada 10 minutos); `Retry-After`'),
}

export const openapi: OpenApiFragment = {
  paths: {
    '/autos/{slug}': {
      get: {
        tags: ['Compradores'],
        summary: 'Página pública de una publicación activa (HTML)',
        description:
          'Fotos, precio, datos principales, descripción, agencia y formulario de consulta. Cuenta una visita por ' +
          'visitante y día (sin cookies; robots excluidos). `Cache-Control: private, no-cache` y `ETag` (304).',
        security: open,
        parameters: [slug],
        responses: {
          '200': html('La página'),
          '304': { description: 'Sin cambios respecto del ETag enviado' },
          '404': html('La publicación no existe'),
          '410': html('La publicación está suspendida o archivada'),
        },
      },
    },
    '/autos/{slug}/consultas': {
      post: {
        tags: ['Compradores'],
        summary: 'Formulario de consulta de una publicación (OrigenLead Portal)',
        security: open,
        parameters: [slug],
        requestBody: form(),
        responses: { ...formResponses, '410': html('La publicación está suspendida o archivada') },
      },
    },
    '/autos/{slug}/consulta-enviada': {
      get: {
        tags: ['Compradores'],
        summary: 'Confirmación de la consulta enviada (HTML)',
        security: open,
        parameters: [slug],
        responses: {
          '200': html('Confirmación'),
          '303': { description: 'Sin consulta reciente: vuelve a la publicación' },
        },
      },
    },
    '/modelos/{id}': {
      get: {
        tags: ['Compradores'],
        summary:
          'Página de un modelo del catálogo con sus versiones y formulario de consulta (HTML)',
        security: open,
        parameters: [modelId],
        responses: { '200': html('La página'), '404': html('El modelo no existe') },
      },
    },
    '/modelos/{id}/consultas': {
      post: {
        tags: ['Compradores'],
        summary:
          'Consulta de catálogo (TipoAnuncio Catalogo) para una agencia de la región elegida',
        security: open,
        parameters: [modelId],
        requestBody: form({
          Region: { type: 'integer', description: 'Id de la región del comprador' },
          VersionId: { type: 'integer', description: 'Versión de interés (opcional)' },
        }),
        responses: {
          ...formResponses,
          '409': html('Ninguna agencia recibe consultas de catálogo en la región'),
        },
      },
    },
    '/modelos/{id}/consulta-enviada': {
      get: {
        tags: ['Compradores'],
        summary: 'Confirmación de la consulta de catálogo enviada (HTML)',
        security: open,
        parameters: [modelId],
        responses: {
          '200': html('Confirmación'),
          '303': { description: 'Sin consulta reciente: vuelve al modelo' },
        },
      },
    },
    '/recursos/compradores.css': {
      get: {
        tags: ['Compradores'],
        summary: 'Hoja de estilos de las páginas públicas',
        security: open,
        parameters: [queryParam('v', 'Versión (cambia con el contenido)')],
        responses: {
          '200': { description: 'CSS', content: { 'text/css': { schema: { type: 'string' } } } },
        },
      },
    },
    '/v3/visitas/{adminmail}': {
      get: {
        tags: ['Visitas'],
        summary: 'Visitas diarias de las publicaciones de la agencia',
        description:
          'Visitas por publicación y día a las páginas públicas de las publicaciones de la aplicación (un visitante ' +
          'cuenta una vez por día; robots excluidos). Sin `hasta`: hoy; sin `desde`: 30 días hasta `hasta`; ' +
          `a lo sumo ${MAX_SPAN_DAYS} días entre ambas. Sólo días con visitas.`,
        parameters: [
          pathParam('adminmail', 'E-mail del administrador de la agencia', {
            type: 'string',
            format: 'email',
          }),
          queryParam('externalid', 'ExternalId de una publicación'),
          queryParam('desde', 'Primer día (YYYY-MM-DD)', { type: 'string', format: 'date' }),
          queryParam('hasta', 'Último día (YYYY-MM-DD), no anterior a desde', {
            type: 'string',
            format: 'date',
          }),
          queryParam('operador', 'Sólo publicaciones de este colaborador', {
            type: 'string',
            format: 'email',
          }),
        ],
        responses: {
          '200': negotiated(
            'Visitas por publicación y día',
            listOf(ref('Visita')),
            listOf(ref('VisitaRef'))
          ),
          ...problems(400, 404, 406),
        },
      },
    },
  },
  schemas: {
    Visita: {
      type: 'object',
      required: ['ExternalId', 'Fecha', 'Visitas', '_links'],
      properties: {
        ExternalId: { type: 'string' },
        Fecha: { type: 'string', format: 'date' },
        Visitas: { type: 'integer', minimum: 1 },
        _links: ref('Links'),
      },
    },
    VisitaRef: {
      type: 'object',
      required: ['ExternalId', 'Fecha', 'Visitas', 'href', 'title'],
      properties: {
        ExternalId: { type: 'string' },
        Fecha: { type: 'string', format: 'date' },
        Visitas: { type: 'integer', minimum: 1 },
        href: { type: 'string' },
        title: { type: 'string' },
      },
    },
  },
}
