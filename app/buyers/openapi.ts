/*
 * What the buyers' routes mean, beside routes.ts: public listing and model
 * pages with their inquiry forms (HTML, no credentials) and the visits report.
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
  queryParam,
  schemaOf,
  type OpenApiFragment,
} from '#core/openapi/helpers'
import { listOf, ReferenceSchema } from '#core/openapi/wire'
import {
  privacyRequestValidator,
  requestListValidator,
  retentionValidator,
} from '#buyers/validators/privacy'
import {
  DatosInteresadoSchema,
  PrivacidadSchema,
  SolicitudesPaginaRefSchema,
  SolicitudesPaginaSchema,
  SolicitudSchema,
} from '#buyers/transformers/privacy_transformer'
import { intakeValidator } from '#leads/validators/inquiry_validators'
import { FORM_FIELDS, HONEYPOT } from '#buyers/validators/inquiry_form'
import { MAX_SPAN_DAYS, visitsQueryValidator } from '#buyers/validators/visits_query'
import { VisitaRefSchema, VisitaSchema } from '#buyers/transformers/visit_transformer'

const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
})

/** The form posts Interesado's fields as text (docs: same rules as the API). */
const interesado = schemaOf(intakeValidator).properties.Interesado.properties
const formFields = Object.fromEntries(
  FORM_FIELDS.map((name) => {
    const { type: _type, enum: values, ...rest } = interesado[name]
    return [name, { type: 'string', ...rest, ...(values ? { enum: values.filter(Boolean) } : {}) }]
  })
)

const form = (extra: Record<string, unknown> = {}) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: {
          ...formFields,
          _csrf: { type: 'string', description: 'Token CSRF del formulario (sesión en cookie)' },
          [HONEYPOT]: { type: 'string', description: 'Trampa para robots: debe llegar vacío' },
          ...extra,
        },
      },
    },
  },
})

/** A redirect: `Location` and a short text body. */
const seeOther = (description: string) => ({
  description,
  headers: { Location: locationHeader },
  content: { 'text/plain': { schema: { type: 'string' } } },
})

const formResponses = {
  '303': seeOther('Consulta recibida: redirige a la página de confirmación (Post/Redirect/Get)'),
  '400': html('Datos inválidos: el formulario con los mensajes junto a cada campo'),
  '403': html('Token CSRF ausente o inválido'),
  '404': html('No existe'),
  '429': html('Demasiadas consultas desde la misma IP (10 cada 10 minutos); `Retry-After`'),
}

export const openapi: OpenApiFragment = {
  tags: [
    {
      name: 'Compradores',
      description: 'Páginas públicas de publicaciones y modelos, con sus formularios de consulta',
    },
    { name: 'Visitas', description: 'Visitas diarias a las páginas públicas de las publicaciones' },
    {
      name: 'Privacidad',
      description:
        'Datos personales de los interesados (Ley 25.326, RGPD): acceso, supresión, retención',
    },
  ],
  params: {
    slug: pathParam('slug', 'Identificador público de la publicación (`_links.publica`)'),
    id: pathParam('id', 'Id del modelo del catálogo', { type: 'integer', format: 'int32' }),
  },
  operations: {
    'GET /recursos/compradores.css': {
      operationId: 'getBuyersStylesheet',
      tag: 'Compradores',
      summary: 'Hoja de estilos de las páginas públicas',
      description: 'Inmutable por versión: `v` cambia con el contenido.',
      security: open,
      parameters: [queryParam('v', 'Versión (cambia con el contenido)')],
      responses: {
        '200': { description: 'CSS', content: { 'text/css': { schema: { type: 'string' } } } },
        '404': html('No existe'),
      },
    },
    'GET /autos/:slug': {
      operationId: 'getListingPage',
      tag: 'Compradores',
      summary: 'Página pública de una publicación activa',
      description:
        'Fotos, precio, datos principales, descripción, agencia y formulario de consulta. Cuenta una visita por ' +
        'visitante y día (sin cookies; robots excluidos). `Cache-Control: private, no-cache` y `ETag` (304).',
      security: open,
      responses: {
        '200': html('La página'),
        '304': { description: 'Sin cambios respecto del ETag enviado' },
        '400': html('Dirección mal formada'),
        '404': html('La publicación no existe'),
        '410': html('La publicación está suspendida o archivada'),
      },
    },
    'POST /autos/:slug/consultas': {
      operationId: 'submitListingInquiryForm',
      tag: 'Compradores',
      summary: 'Formulario de consulta de una publicación',
      description: 'Crea una consulta con OrigenLead Portal.',
      security: open,
      requestBody: form(),
      responses: { ...formResponses, '410': html('La publicación está suspendida o archivada') },
    },
    'GET /autos/:slug/consulta-enviada': {
      operationId: 'getListingInquirySent',
      tag: 'Compradores',
      summary: 'Confirmación de la consulta enviada',
      description: 'Sin consulta reciente en la sesión, vuelve a la publicación.',
      security: open,
      responses: {
        '200': html('Confirmación'),
        '303': seeOther('Sin consulta reciente: vuelve a la publicación'),
        '404': html('No existe'),
      },
    },
    'GET /modelos/:id': {
      operationId: 'getModelPage',
      tag: 'Compradores',
      summary: 'Página de un modelo del catálogo',
      description: 'Sus versiones y un formulario de consulta de catálogo.',
      security: open,
      responses: { '200': html('La página'), '404': html('El modelo no existe') },
    },
    'POST /modelos/:id/consultas': {
      operationId: 'submitModelInquiryForm',
      tag: 'Compradores',
      summary: 'Consulta de catálogo',
      description: 'TipoAnuncio Catalogo, para una agencia de la región elegida.',
      security: open,
      requestBody: form({
        Region: { type: 'integer', description: 'Id de la región del comprador' },
        VersionId: { type: 'integer', description: 'Versión de interés (opcional)' },
      }),
      responses: {
        ...formResponses,
        '409': html('Ninguna agencia recibe consultas de catálogo en la región'),
      },
    },
    'GET /modelos/:id/consulta-enviada': {
      operationId: 'getModelInquirySent',
      tag: 'Compradores',
      summary: 'Confirmación de la consulta de catálogo enviada',
      description: 'Sin consulta reciente en la sesión, vuelve al modelo.',
      security: open,
      responses: {
        '200': html('Confirmación'),
        '303': seeOther('Sin consulta reciente: vuelve al modelo'),
        '404': html('No existe'),
      },
    },
    'GET /privacidad': {
      operationId: 'getPrivacyNotice',
      tag: 'Compradores',
      summary: 'Aviso de privacidad para los compradores',
      description:
        'Quién recibe los datos de una consulta y para qué, cuánto tiempo se guardan, los derechos (acceso, ' +
        'rectificación, supresión) y cómo ejercerlos. Enlazada desde cada formulario de consulta.',
      security: open,
      responses: { '200': html('La página'), '400': html('Dirección mal formada') },
    },
    'GET /v3/privacidad/:adminmail': {
      operationId: 'getPrivacySettings',
      tag: 'Privacidad',
      summary: 'Retención de los datos de los interesados',
      description:
        'Cuántos días conservan las consultas de la agencia los datos del interesado antes de que el trabajo diario ' +
        'los suprima (por omisión BUYER_DATA_RETENTION_DAYS, 730).',
      responses: { '200': negotiated('Retención', PrivacidadSchema, ReferenceSchema) },
      problems: [404, 406],
    },
    'PUT /v3/privacidad/:adminmail': {
      operationId: 'putPrivacySettings',
      tag: 'Privacidad',
      summary: 'Fija la retención de los datos de los interesados',
      description:
        'RetencionDias entre 30 y 3650. Solo la aplicación que invitó a la agencia la cambia; otra aplicación ' +
        'vinculada recibe 403 (y no ve el enlace `edit`).',
      requestBody: jsonBody(bodyOf('PrivacidadEdit', retentionValidator)),
      responses: { '200': negotiated('Retención guardada', PrivacidadSchema, ReferenceSchema) },
      problems: [400, 403, 406, 413, 415],
    },
    'GET /v3/privacidad/:adminmail/solicitudes': {
      operationId: 'listPrivacyRequests',
      tag: 'Privacidad',
      summary: 'Solicitudes de privacidad de la agencia',
      description:
        'Las solicitudes de la agencia, las haya presentado cualquier aplicación vinculada, más recientes primero, ' +
        'de a 100; los identificadores del interesado enmascarados.',
      parameters: parametersOf(requestListValidator, 'query', {
        pagina: 'Página (1..99), de 100 solicitudes',
      }),
      responses: {
        '200': negotiated('Solicitudes', SolicitudesPaginaSchema, SolicitudesPaginaRefSchema),
      },
      problems: [400, 404, 406],
    },
    'POST /v3/privacidad/:adminmail/solicitudes': {
      operationId: 'createPrivacyRequest',
      tag: 'Privacidad',
      summary: 'Presenta una solicitud de acceso o supresión',
      description:
        'El interesado por Email (sin distinguir mayúsculas), Telefono (como número nacional: código de área y ' +
        'abonado, sin +54, 9, 0 ni 15; uno sin código de área, o guardado sin él, solo cuenta junto con Email o ' +
        'DocIdentidad) y/o DocIdentidad (sus dígitos; un CUIT, por el DNI que contiene); al menos uno. ' +
        'Se procesa en segundo plano: ' +
        'Acceso deja los datos en `datos` por 30 días; Supresion vacía los datos del interesado en cada copia ' +
        '(consultas, entregas, eventos, respuestas guardadas, correos) y envía InteresadoSuprimido (tópico ' +
        'consultas) a cada aplicación que recibió alguna de esas consultas. Los correos y webhooks ya entregados no ' +
        'pueden retirarse. Vence: Acceso, 10 días corridos; Supresion, 5 días hábiles.',
      requestBody: jsonBody(bodyOf('SolicitudCreate', privacyRequestValidator)),
      responses: {
        '202': negotiated('Solicitud registrada', SolicitudSchema, ReferenceSchema, {
          Location: locationHeader,
        }),
      },
      problems: [400, 403, 406, 413, 415],
    },
    'GET /v3/privacidad/:adminmail/solicitudes/:id': {
      operationId: 'getPrivacyRequest',
      tag: 'Privacidad',
      summary: 'Una solicitud de privacidad',
      description: 'Su estado, el plazo legal y cuántas consultas coincidieron.',
      params: { id: pathParam('id', 'Id de la solicitud', { type: 'string', format: 'uuid' }) },
      responses: { '200': negotiated('Solicitud', SolicitudSchema, ReferenceSchema) },
      problems: [404, 406],
    },
    'GET /v3/privacidad/:adminmail/solicitudes/:id/datos': {
      operationId: 'getPrivacyRequestData',
      tag: 'Privacidad',
      summary: 'Los datos de una solicitud de Acceso',
      description:
        'Las consultas del interesado en la agencia como las muestra la API, con `Coincidencia` (qué ' +
        'identificadores coincidieron) y sus Entregas (las de otra aplicación, solo su canal). Solo para la ' +
        'aplicación que la presentó (otra, 403). Pendiente → 409; se conservan 30 días, o hasta una Supresion ' +
        '(o la retención) de la misma persona, luego 410; una solicitud de Supresion no tiene datos (404).',
      params: { id: pathParam('id', 'Id de la solicitud', { type: 'string', format: 'uuid' }) },
      responses: {
        '200': negotiated('Datos del interesado', DatosInteresadoSchema, ReferenceSchema, {
          'Cache-Control': header(
            'La respuesta lleva datos personales: ningún caché la guarda',
            { type: 'string', const: 'no-store' },
            true
          ),
        }),
      },
      problems: [403, 404, 406, 409, 410],
    },
    'GET /v3/visitas/:adminmail': {
      operationId: 'listVisits',
      tag: 'Visitas',
      summary: 'Visitas diarias de las publicaciones de la agencia',
      description:
        'Visitas por publicación y día a las páginas públicas de las publicaciones de la aplicación (un visitante ' +
        'cuenta una vez por día; robots excluidos). Sin `hasta`: hoy; sin `desde`: 30 días hasta `hasta`; ' +
        `a lo sumo ${MAX_SPAN_DAYS} días entre ambas. Solo días con visitas.`,
      parameters: parametersOf(visitsQueryValidator, 'query', {
        externalid: 'ExternalId de una publicación',
        desde: 'Primer día (YYYY-MM-DD)',
        hasta: 'Último día (YYYY-MM-DD), no anterior a desde',
        operador: 'Solo publicaciones de este colaborador',
      }),
      responses: {
        '200': negotiated(
          'Visitas por publicación y día',
          listOf(VisitaSchema),
          listOf(VisitaRefSchema)
        ),
      },
      problems: [400, 404, 406],
    },
  },
}
