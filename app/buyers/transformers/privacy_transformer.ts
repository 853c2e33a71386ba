/*
 * Code → wire for the privacy routes (docs/design.md §16): the agency's
 * retention (`Privacidad`), a request (`Solicitud`, identifiers masked), the
 * paged list of requests, and an access request's export (`DatosInteresado`).
 * `viewer`: the calling app (links it may follow).
 */
import { link, path, segment, type Links } from '#core/http/links'
import { pagedEnvelope } from '#core/http/envelopes'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinksSchema, pagedOf, ReferenceSchema } from '#core/openapi/wire'
import { wireTime } from '#core/wire_time'
import { ConsultaSchema } from '#leads/transformers/inquiry_transformer'
import { EntregaSchema } from '#leads/transformers/delivery_transformer'
import type { PrivacyRequestRow } from '#buyers/stores/privacy_store'
import type { RetentionView } from '#buyers/services/privacy/retention_settings'

const str = { type: ['string', 'null'] } as const
const moment = { type: 'string', format: 'date-time' } as const

export const PrivacidadSchema = named(
  'Privacidad',
  object({
    RetencionDias: {
      type: 'integer',
      minimum: 30,
      maximum: 3650,
      description:
        'Días que las consultas conservan los datos del interesado; luego se suprimen (por omisión BUYER_DATA_RETENTION_DAYS)',
    },
    _links: LinksSchema,
  })
)

export const SolicitudSchema = named(
  'Solicitud',
  object({
    Id: { type: 'string', format: 'uuid' },
    Tipo: { type: 'string', enum: ['Acceso', 'Supresion'] },
    Estado: { type: 'string', enum: ['Pendiente', 'Terminada'] },
    Recibida: moment,
    Vence: {
      ...moment,
      description:
        'Plazo legal: Acceso, 10 días corridos; Supresion, 5 días hábiles (lunes a viernes)',
    },
    Terminada: { type: ['string', 'null'], format: 'date-time' },
    Consultas: {
      type: ['integer', 'null'],
      description: 'Consultas de la agencia que coincidieron; null mientras está Pendiente',
    },
    Interesado: object({ Email: str, Telefono: str, DocIdentidad: str }),
    _links: LinksSchema,
  })
)

export const SolicitudesPaginaSchema = named('SolicitudesPagina', pagedOf(SolicitudSchema))
export const SolicitudesPaginaRefSchema = named('SolicitudesPaginaRef', pagedOf(ReferenceSchema))

const { _links: _omit, ...consultaProperties } = ConsultaSchema.properties
const exportedConsulta = object({
  ...consultaProperties,
  _links: LinksSchema,
  Coincidencia: {
    type: 'array',
    items: { type: 'string', enum: ['Email', 'Telefono', 'DocIdentidad'] },
    description:
      'Qué identificadores de la solicitud coincidieron con esta consulta (un Telefono sin código de área ' +
      'solo cuenta junto con Email o DocIdentidad)',
  },
  Entregas: {
    type: 'array',
    items: object({
      Canal: EntregaSchema.properties.Canal,
      Destino: {
        type: 'string',
        description:
          'La URL o el correo de destino; el de otra aplicación, solo su canal (Webhook, AdfHook, AdfMail, HtmlMail)',
      },
      Momento: moment,
      Estado: EntregaSchema.properties.Estado,
    }),
  },
})
export const DatosInteresadoSchema = named(
  'DatosInteresado',
  object({
    Interesado: object({ Email: str, Telefono: str, DocIdentidad: str }),
    Consultas: {
      type: 'array',
      // Exports made before Coincidencia existed (kept up to 30 days) lack it.
      items: {
        ...exportedConsulta,
        required: exportedConsulta.required.filter((name) => name !== 'Coincidencia'),
      },
    },
  })
)

export const privacyPath = (adminMail: string) => path('privacidad', adminMail)
export const requestsPath = (adminMail: string) => `${privacyPath(adminMail)}/solicitudes`
export const requestPath = (adminMail: string, id: string) =>
  `${requestsPath(adminMail)}/${segment(id)}`

/** `edit` only for the app that may change it (the one that invited the agency). */
export function retentionShapes(view: RetentionView, adminMail: string) {
  const self = privacyPath(adminMail)
  const body: Wire<typeof PrivacidadSchema> = {
    RetencionDias: view.days,
    _links: {
      self: link(self),
      ...(view.editable ? { edit: link(self, { method: 'PUT' }) } : {}),
      solicitudes: link(requestsPath(adminMail)),
    },
  }
  return {
    full: () => body,
    ref: () => ({ href: self, title: `Retención: ${view.days} días` }),
  }
}

/** `datos` for a done access request, to the app that filed it (the export is its view). */
function requestLinks(request: PrivacyRequestRow, adminMail: string, viewer: number): Links {
  const self = requestPath(adminMail, request.id)
  const links: Links = { self: link(self) }
  if (request.kind === 'access' && request.state === 'done' && request.appId === viewer)
    links.datos = link(`${self}/datos`)
  return links
}

export function requestFull(
  request: PrivacyRequestRow,
  adminMail: string,
  viewer: number
): Wire<typeof SolicitudSchema> {
  return {
    Id: request.id,
    Tipo: request.kind === 'access' ? 'Acceso' : 'Supresion',
    Estado: request.state === 'done' ? 'Terminada' : 'Pendiente',
    Recibida: wireTime(request.receivedAt),
    Vence: wireTime(request.dueAt),
    Terminada: request.doneAt ? wireTime(request.doneAt) : null,
    Consultas: request.matched,
    Interesado: {
      Email: request.masked.email,
      Telefono: request.masked.phone,
      DocIdentidad: request.masked.document,
    },
    _links: requestLinks(request, adminMail, viewer),
  }
}

export function requestRef(request: PrivacyRequestRow, adminMail: string) {
  const who = [request.masked.email, request.masked.phone, request.masked.document]
    .filter(Boolean)
    .join(', ')
  const kind = request.kind === 'access' ? 'Acceso' : 'Supresion'
  return { href: requestPath(adminMail, request.id), title: `${kind}: ${who}` }
}

export function requestShapes(request: PrivacyRequestRow, adminMail: string, viewer: number) {
  return {
    full: () => requestFull(request, adminMail, viewer),
    ref: () => requestRef(request, adminMail),
  }
}

export function requestListShapes(
  list: { requests: PrivacyRequestRow[]; total: number; page: number; perPage: number },
  adminMail: string,
  viewer: number
) {
  const template = `${requestsPath(adminMail)}{?pagina}`
  const page = { page: list.page, perPage: list.perPage, total: list.total }
  return {
    full: () =>
      pagedEnvelope(
        template,
        {},
        page,
        list.requests.map((request) => requestFull(request, adminMail, viewer))
      ),
    ref: () =>
      pagedEnvelope(
        template,
        {},
        page,
        list.requests.map((request) => requestRef(request, adminMail))
      ),
  }
}

export function exportShapes(data: unknown, request: PrivacyRequestRow, adminMail: string) {
  return {
    full: () => data as Wire<typeof DatosInteresadoSchema>,
    ref: () => ({
      href: `${requestPath(adminMail, request.id)}/datos`,
      title: `Datos del interesado (${request.matched ?? 0} consultas)`,
    }),
  }
}
