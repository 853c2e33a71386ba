/*
 * Publicacion (docs/spec.md §2.2) and its reference, and the photo list of
 * GET …/fotos. The wire names of a listing live here and in its validator.
 */
import { expand, group, link, path, type Links } from '#core/http/links'
import { pagedEnvelope, type Page } from '#core/http/envelopes'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { Exposure, ListingData, ListingState } from '#listings/models/listing'
import type { ListingRecord } from '#listings/services/listing_record'
import type { StateCause } from '#listings/services/listing_events'
import type { ListingNotice } from '#listings/services/listing_failures'
import type { ListingPhotoRow } from '#listings/stores/listing_photo_store'
import { listingEtag } from '#listings/services/listing_etag'
import { photoUrl } from '#listings/services/photo_storage'
import type ListingPhoto from '#listings/models/listing_photo'

import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinksSchema, type ReferenceSchema, ValorSchema } from '#core/openapi/wire'

type Agency = Pick<AgencyView, 'adminMail'>

export const EXPOSURE_WIRE: Record<Exposure, 'Alta' | 'Media' | 'Baja'> = {
  high: 'Alta',
  medium: 'Media',
  low: 'Baja',
}

export const STATE_WIRE: Record<ListingState, 'Activa' | 'Suspendida' | 'Archivada'> = {
  active: 'Activa',
  suspended: 'Suspendida',
  archived: 'Archivada',
}

/** Tipo of the `publicaciones` event of a state change (docs/design.md §14). */
const STATE_EVENT: Record<ListingState, string> = {
  active: 'PublicacionActivada',
  suspended: 'PublicacionSuspendida',
  archived: 'PublicacionArchivada',
}

/** Causa of a state change the app did not make itself. */
const CAUSE_WIRE: Record<StateCause, string> = {
  plan: 'Plan',
  agency_suspended: 'AgenciaSuspendida',
  operator_suspended: 'OperadorSuspendido',
  other_app: 'OtraAplicacion',
  administration: 'Administracion',
}

const nullableString = { type: ['string', 'null'] } as const
const valor = { anyOf: [ValorSchema, { type: 'null' }] } as const

export const DatoTecnicoSchema = named(
  'DatoTecnico',
  object({
    Nombre: { type: 'string', minLength: 1, maxLength: 50 },
    Valor: { type: 'string', maxLength: 200 },
  })
)

export const AvisoSchema = named(
  'Aviso',
  object({
    Campo: { type: 'string', description: 'El campo del cuerpo al que se refiere' },
    Detalle: { type: 'string' },
  })
)

/** What a write did not do as asked, though it succeeded (docs/design.md §24). */
export const AvisosSchema = {
  type: 'array',
  items: AvisoSchema,
  description:
    'Solo en la respuesta de una escritura que no hizo algo como se pidió: una lista de Fotos del mismo largo que la actual (se ignora), DatosTecnicosCustom de una versión del catálogo (muestra los del catálogo), una Exposicion sin cupo (se eligió otra).',
} as const

/** `base` with `Avisos`, an optional member of a write's answer. */
function withAvisos<S extends { properties: object }>(base: S) {
  return { ...base, properties: { ...base.properties, Avisos: AvisosSchema } }
}

export const PublicacionSchema = named(
  'Publicacion',
  withAvisos(
    object({
      ExternalId: { type: 'string' },
      RefStock: nullableString,
      EstadoActual: { type: 'string', enum: ['Activa', 'Suspendida', 'Archivada'] },
      Exposicion: { type: 'string', enum: ['Alta', 'Media', 'Baja'] },
      OperadorResponsable: { type: 'string', format: 'email' },
      Marca: { type: 'string' },
      Modelo: { type: 'string' },
      Version: { type: 'string' },
      VersionYear: { type: 'integer' },
      Transmision: nullableString,
      Propulsion: nullableString,
      Kilometraje: { type: 'integer' },
      Color: nullableString,
      Descripcion: nullableString,
      DatosTecnicosCustom: { type: 'array', items: DatoTecnicoSchema },
      Precio: valor,
      Adelanto: valor,
      Cuota: valor,
      Fotos: {
        type: 'array',
        items: { type: 'string', format: 'uri' },
        description: 'URLs del servicio de las fotos procesadas, en orden',
      },
      CertificadoDeGarantiaUsado: {
        type: ['object', 'null'],
        required: ['Aplica'],
        properties: { Aplica: { const: true } },
        description:
          'Objeto solo cuando el certificado aplica (usado y AplicaCertificadoGarantiaUsado)',
      },
      Locacion: object({
        Region: nullableString,
        Ciudad: nullableString,
        Direccion: nullableString,
      }),
      Telefono: nullableString,
      Consultas: LinkGroupSchema,
      _links: LinksSchema,
    })
  )
)

export const PublicacionRefSchema = named(
  'PublicacionRef',
  withAvisos(
    object({
      etag: { type: 'string' },
      ExternalId: { type: 'string' },
      EstadoActual: { type: 'string', enum: ['Activa', 'Suspendida', 'Archivada'] },
      href: { type: 'string' },
      title: { type: 'string' },
    })
  )
)

export const FotoSchema = named(
  'Foto',
  object({
    Posicion: { type: 'integer', minimum: 1 },
    Origen: { type: 'string', format: 'uri' },
    Estado: { type: 'string', enum: ['Pendiente', 'Lista', 'Rechazada'] },
    Motivo: nullableString,
    Url: { type: ['string', 'null'], format: 'uri' },
    Miniatura: { type: ['string', 'null'], format: 'uri' },
    Ancho: { type: ['integer', 'null'] },
    Alto: { type: ['integer', 'null'] },
  })
)

export function listingHref(agency: Agency, externalId: string) {
  return path('publicaciones', agency.adminMail, externalId)
}

export function listingTitle(listing: ListingData) {
  return `${listing.brandName} ${listing.modelName} ${listing.versionName} ${listing.year}`
}

const money = (currency: string | null, amount: number | null) =>
  currency === null || amount === null ? null : { Moneda: currency, Importe: amount }

function links(agency: Agency, listing: ListingData): Links {
  const self = listingHref(agency, listing.externalId)
  const result: Links = {
    self: link(self),
    agencia: link(path('agencias', agency.adminMail)),
    fotos: link(`${self}/fotos`),
  }
  if (listing.state === 'archived') return result
  result.edit = link(self, { method: 'PUT' })
  result.precio = link(self, { method: 'PATCH' })
  result.archivar = link(self, { method: 'DELETE' })
  if (listing.state === 'active') {
    result.suspender = link(`${self}/suspender`, { method: 'PATCH' })
    result.publica = link(`/autos/${listing.slug}`)
  } else {
    result.activar = link(`${self}/activar`, { method: 'PATCH' })
  }
  return result
}

export function listingFull(
  agency: Agency,
  { listing, photoUrls }: ListingRecord
): Wire<typeof PublicacionSchema> {
  return {
    ExternalId: listing.externalId,
    RefStock: listing.refStock,
    EstadoActual: STATE_WIRE[listing.state],
    Exposicion: EXPOSURE_WIRE[listing.exposure],
    OperadorResponsable: listing.operatorEmail,
    Marca: listing.brandName,
    Modelo: listing.modelName,
    Version: listing.versionName,
    VersionYear: listing.year,
    Transmision: listing.transmission,
    Propulsion: listing.propulsion,
    Kilometraje: listing.mileage,
    Color: listing.colour,
    Descripcion: listing.description,
    DatosTecnicosCustom: listing.customSpecs.map((spec) => ({
      Nombre: spec.name,
      Valor: spec.value,
    })),
    Precio: money(listing.priceCurrency, listing.priceAmount),
    Adelanto: money(listing.downPaymentCurrency, listing.downPaymentAmount),
    Cuota: money(listing.installmentCurrency, listing.installmentAmount),
    Fotos: photoUrls,
    // Decision (docs/decisions/listings.md): an object only while the certificate applies (used vehicle, flag on).
    CertificadoDeGarantiaUsado:
      listing.warrantyCertificate && listing.mileage > 0 ? { Aplica: true } : null,
    Locacion: { Region: listing.regionName, Ciudad: listing.cityName, Direccion: listing.address },
    Telefono: listing.phone,
    Consultas: group({
      self: link(
        `${path('consultas', agency.adminMail)}${expand('{?externalid}', { externalid: listing.externalId })}`
      ),
    }),
    _links: links(agency, listing),
  }
}

export function listingRef(
  agency: Agency,
  { listing }: ListingRecord
): Wire<typeof PublicacionRefSchema> {
  return {
    etag: listingEtag(listing),
    ExternalId: listing.externalId,
    EstadoActual: STATE_WIRE[listing.state],
    href: listingHref(agency, listing.externalId),
    title: listingTitle(listing),
  }
}

/** A listing as a read or write answers it; a write's notices become its `Avisos`. */
export function listingShapes(
  agency: Agency,
  record: ListingRecord,
  notices: ListingNotice[] = []
) {
  const said = notices.length > 0 ? { Avisos: avisos(notices) } : {}
  return {
    full: () => ({ ...listingFull(agency, record), ...said }),
    ref: () => ({ ...listingRef(agency, record), ...said }),
  }
}

/** Each notice as the field it concerns and what became of it, in Spanish. */
export function avisos(notices: readonly ListingNotice[]): Wire<typeof AvisosSchema> {
  return notices.map((notice) => {
    switch (notice.field) {
      case 'photos':
        return {
          Campo: 'Fotos',
          Detalle:
            'La lista tiene tantas fotos como la publicación y, como dice la especificación, no se aplicó: para reemplazarlas envíe una lista de otro largo.',
        }
      case 'customSpecs':
        return {
          Campo: 'DatosTecnicosCustom',
          Detalle:
            'La versión es del catálogo y la publicación muestra los datos técnicos del catálogo: los enviados no se guardaron.',
        }
      case 'exposure':
        return {
          Campo: 'Exposicion',
          Detalle: `El plan no tiene cupo de exposición ${EXPOSURE_WIRE[notice.requested]}: la publicación quedó con exposición ${EXPOSURE_WIRE[notice.given]}.`,
        }
    }
  })
}

/** The paged list; links repeat only the filters the client sent. */
export function listingListShapes(
  agency: Agency,
  records: ListingRecord[],
  page: Page,
  values: Record<string, unknown>
) {
  const template = `${path('publicaciones', agency.adminMail)}{?operador,estado,pagina}`
  return {
    full: () =>
      pagedEnvelope(
        template,
        values,
        page,
        records.map((record) => listingFull(agency, record))
      ),
    ref: () =>
      pagedEnvelope(
        template,
        values,
        page,
        records.map((record) => listingRef(agency, record))
      ),
  }
}

const PHOTO_STATE = { pending: 'Pendiente', ready: 'Lista', rejected: 'Rechazada' } as const

export function photoEntry(photo: ListingPhoto): Wire<typeof FotoSchema> {
  return {
    Posicion: photo.position + 1,
    Origen: photo.sourceUrl,
    Estado: PHOTO_STATE[photo.state],
    Motivo: photo.reason,
    Url: photo.storageKey ? photoUrl(photo.storageKey) : null,
    Miniatura: photo.thumbnailKey ? photoUrl(photo.thumbnailKey) : null,
    Ancho: photo.width,
    Alto: photo.height,
  }
}

export function photoRef(photo: ListingPhoto): Wire<typeof ReferenceSchema> {
  return {
    href: photo.storageKey ? photoUrl(photo.storageKey) : photo.sourceUrl,
    title: `Foto ${photo.position + 1} (${PHOTO_STATE[photo.state]})`,
  }
}

/** Agencia and Recurso of a listing's `publicaciones` events. */
function eventRefs(listing: ListingData) {
  return {
    Agencia: { AdminMail: listing.adminEmail, href: path('agencias', listing.adminEmail) },
    Recurso: {
      href: path('publicaciones', listing.adminEmail, listing.externalId),
      title: listingTitle(listing),
    },
  }
}

/** PublicacionActivada / Suspendida / Archivada with its Causa. */
export function stateChangedEvent(listing: ListingData, to: ListingState, cause: StateCause) {
  return { Tipo: STATE_EVENT[to], ...eventRefs(listing), Datos: { Causa: CAUSE_WIRE[cause] } }
}

/** FotoLista or FotoRechazada (with its Motivo) of a photo that left `pending`. */
export function photoSettledEvent(
  listing: ListingData,
  photo: Pick<ListingPhotoRow, 'position' | 'source_url' | 'state' | 'reason'>
) {
  const where = { Posicion: photo.position + 1, Url: photo.source_url }
  return photo.state === 'ready'
    ? { Tipo: 'FotoLista', ...eventRefs(listing), Datos: where }
    : { Tipo: 'FotoRechazada', ...eventRefs(listing), Datos: { ...where, Motivo: photo.reason } }
}
