/*
 * Code → wire for inquiries: the Consulta of docs/spec.md §2.11, its reference, the
 * webhook payload of docs/design.md §9 and the paged list of docs/spec.md §2.12.
 */
import { type DateTime } from 'luxon'
import { link, path, segment, type Links } from '#core/http/links'
import { pagedEnvelope } from '#core/http/envelopes'
import type { InquiryFields, Money } from '#leads/models/inquiry'
import { wireTime } from '#core/wire_time'
import { named, object, nullableObject, type Wire } from '#core/openapi/schema'
import { LinksSchema, pagedOf, ReferenceSchema, ValorSchema } from '#core/openapi/wire'
import { INTERESTS, LEAD_ORIGINS } from '#core/value_sets'

const str = { type: ['string', 'null'] } as const
const int = { type: ['integer', 'null'] } as const
const valorOrNull = { anyOf: [ValorSchema, { type: 'null' }] } as const
const momentSchema = { type: 'string', format: 'date-time' } as const

export const InteresadoSchema = named(
  'Interesado',
  object({
    Interes: { type: ['string', 'null'], enum: [...INTERESTS, null] },
    Nombre: str,
    Apellido: str,
    Email: { type: ['string', 'null'], format: 'email' },
    Telefono: str,
    DocIdentidad: str,
    Provincia: str,
    Ciudad: str,
    Comentario: str,
    InfoOperacion: nullableObject({
      EntregaVehiculo: nullableObject({ Marca: str, Modelo: str, VersionYear: int }),
      FinanciacionDeseada: nullableObject({ Adelanto: valorOrNull, Cuota: valorOrNull }),
      QuiereCotizacionSeguro: { type: ['boolean', 'null'] },
    }),
  })
)

export const ConsultaSchema = named(
  'Consulta',
  object({
    Momento: momentSchema,
    OrigenLead: { type: 'string', enum: LEAD_ORIGINS },
    TipoAnuncio: { type: 'string', enum: ['Publicacion', 'Catalogo'] },
    Auto: object({
      ExternalId: str,
      RefStock: str,
      Marca: str,
      Modelo: str,
      Version: str,
      VersionYear: int,
      Kilometraje: int,
      Color: str,
      BodyType: str,
      Estado: { type: ['string', 'null'], enum: ['Nuevo', 'Usado', null] },
      Precio: valorOrNull,
      Anticipo: valorOrNull,
      Cuota: valorOrNull,
    }),
    Interesado: InteresadoSchema,
    OperadorResponsable: { type: ['string', 'null'], format: 'email' },
    _links: LinksSchema,
  })
)

const periodSchema = {
  Desde: { ...momentSchema, description: 'Comienzo del período' },
  Hasta: { ...momentSchema, description: 'Fin del período' },
} as const

/** Stored columns hold what the intake validator let in (its value sets). */
type Consulta = Wire<typeof ConsultaSchema>

export const ConsultasPaginaSchema = named('ConsultasPagina', {
  ...pagedOf(ConsultaSchema),
  required: [...pagedOf(ConsultaSchema).required, 'Desde', 'Hasta'],
  properties: { ...pagedOf(ConsultaSchema).properties, ...periodSchema },
})

export const ConsultasPaginaRefSchema = named('ConsultasPaginaRef', {
  ...pagedOf(ReferenceSchema),
  required: [...pagedOf(ReferenceSchema).required, 'Desde', 'Hasta'],
  properties: { ...pagedOf(ReferenceSchema).properties, ...periodSchema },
})

export const PublicacionConsultadaSchema = named('PublicacionConsultada', {
  type: 'object',
  description:
    'Carga del webhook (POST JSON) con encabezados Standard Webhooks: webhook-id (estable en reintentos y reenvíos), ' +
    'webhook-timestamp y webhook-signature (v1, HMAC-SHA256 con el Secret).',
  required: ['Tipo', 'Momento', 'Agencia', 'Consulta'],
  properties: {
    Tipo: { type: 'string', const: 'PublicacionConsultada' },
    Momento: momentSchema,
    Reenvio: { type: 'boolean', const: true, description: 'Presente (true) en los reenvíos' },
    Agencia: object({ AdminMail: { type: 'string' }, href: { type: 'string' } }),
    Consulta: ConsultaSchema,
  },
})

const LIST_QUERY = '{?operador,externalid,desde,hasta,pagina}'

/** What the list service hands the transformer. */
export type InquiryList = {
  inquiries: InquiryFields[]
  adminMails: Map<number, string>
  total: number
  page: number
  perPage: number
  from: DateTime
  to: DateTime
}

const valor = (money: Money | null | undefined) =>
  money ? { Moneda: money.currency, Importe: Number(money.amount) } : null

/** ISO 8601 with the offset of TZ. */
export const moment = wireTime

/** An agency's `/v3/consultas/{adminmail}`; a list makes it once per agency for its hundred entries. */
const agencyInquiries = (adminMail: string) => path('consultas', adminMail)

export function inquiryPath(
  adminMail: string,
  sid: string,
  agencyPath: string = agencyInquiries(adminMail)
) {
  return `${agencyPath}/${segment(sid)}`
}

function inquiryLinks(adminMail: string, sid: string, agencyPath?: string): Links {
  const self = inquiryPath(adminMail, sid, agencyPath)
  return {
    self: link(self),
    entregas: link(`${self}/entregas`),
    resendwebhook: link(`${self}/resendwebhook`, { method: 'POST' }),
  }
}

export function vehicleTitle(inquiry: InquiryFields) {
  const { brand, model, version, versionYear } = inquiry.vehicle
  return [brand, model, version, versionYear]
    .filter((part) => part !== null && part !== '')
    .join(' ')
}

export function inquiryFull(
  inquiry: InquiryFields,
  adminMail: string,
  agencyPath?: string
): Wire<typeof ConsultaSchema> {
  const vehicle = inquiry.vehicle
  const info = inquiry.operationInfo
  return {
    Momento: moment(inquiry.receivedAt),
    OrigenLead: inquiry.origin as Consulta['OrigenLead'],
    TipoAnuncio: inquiry.kind === 'listing' ? 'Publicacion' : 'Catalogo',
    Auto: {
      ExternalId: vehicle.externalId,
      RefStock: vehicle.refStock,
      Marca: vehicle.brand,
      Modelo: vehicle.model,
      Version: vehicle.version,
      VersionYear: vehicle.versionYear,
      Kilometraje: vehicle.mileage,
      Color: vehicle.color,
      BodyType: vehicle.bodyType,
      Estado: vehicle.condition as Consulta['Auto']['Estado'],
      Precio: valor(vehicle.price),
      Anticipo: valor(vehicle.downPayment),
      Cuota: valor(vehicle.installment),
    },
    Interesado: {
      Interes: inquiry.interest as Consulta['Interesado']['Interes'],
      Nombre: inquiry.firstName,
      Apellido: inquiry.lastName,
      Email: inquiry.email,
      Telefono: inquiry.phone,
      DocIdentidad: inquiry.documentId,
      Provincia: inquiry.province,
      Ciudad: inquiry.city,
      Comentario: inquiry.comment,
      InfoOperacion: info
        ? {
            EntregaVehiculo: info.tradeIn
              ? {
                  Marca: info.tradeIn.brand,
                  Modelo: info.tradeIn.model,
                  VersionYear: info.tradeIn.versionYear,
                }
              : null,
            FinanciacionDeseada: info.financing
              ? {
                  Adelanto: valor(info.financing.downPayment),
                  Cuota: valor(info.financing.installment),
                }
              : null,
            QuiereCotizacionSeguro: info.wantsInsuranceQuote,
          }
        : null,
    },
    OperadorResponsable: inquiry.operatorEmail,
    _links: inquiryLinks(adminMail, inquiry.sid, agencyPath),
  }
}

/** Reference: buyer e-mail, vehicle, ExternalId (docs/spec.md §2.11). */
export function inquiryRef(
  inquiry: InquiryFields,
  adminMail: string,
  agencyPath?: string
): Wire<typeof ReferenceSchema> {
  const buyer = inquiry.email ?? inquiry.phone ?? ''
  const title = [buyer, vehicleTitle(inquiry), inquiry.externalId].filter(Boolean).join(', ')
  return { href: inquiryPath(adminMail, inquiry.sid, agencyPath), title }
}

export function inquiryShapes(inquiry: InquiryFields, adminMail: string) {
  return { full: () => inquiryFull(inquiry, adminMail), ref: () => inquiryRef(inquiry, adminMail) }
}

/**
 * The paged list of docs/spec.md §2.12. Links repeat only the query values the
 * client sent; `adminMail` null is the operator-wide list (GET /v3/consultas).
 */
export function inquiryListShapes(
  list: InquiryList,
  adminMail: string | null,
  sent: Record<string, unknown>
) {
  const template = (adminMail ? path('consultas', adminMail) : '/v3/consultas') + LIST_QUERY
  const values = {
    operador: sent.operador,
    externalid: sent.externalid,
    desde: sent.desde,
    hasta: sent.hasta,
  }
  const period = { Desde: moment(list.from), Hasta: moment(new Date(list.to.toMillis() - 1)) }
  const envelope = (
    entry: (inquiry: InquiryFields, adminMail: string, agencyPath: string) => unknown
  ) => {
    const agencyPaths = new Map<string, string>()
    return pagedEnvelope(
      template,
      values,
      { page: list.page, perPage: list.perPage, total: list.total },
      list.inquiries.map((inquiry) => {
        const mail = list.adminMails.get(inquiry.agencyId) ?? ''
        let agencyPath = agencyPaths.get(mail)
        if (agencyPath === undefined) agencyPaths.set(mail, (agencyPath = agencyInquiries(mail)))
        return entry(inquiry, mail, agencyPath)
      }),
      period
    )
  }
  return {
    full: () => envelope(inquiryFull),
    ref: () => envelope(inquiryRef),
  }
}

/** The `PublicacionConsultada` webhook payload (docs/design.md §9). */
export function inquiryWebhookPayload(
  inquiry: InquiryFields,
  adminMail: string,
  options: { resend?: boolean; at?: DateTime } = {}
): Wire<typeof PublicacionConsultadaSchema> {
  return {
    Tipo: 'PublicacionConsultada' as const,
    Momento: moment(options.at ?? inquiry.receivedAt),
    ...(options.resend ? { Reenvio: true as const } : {}),
    Agencia: { AdminMail: adminMail, href: path('agencias', adminMail) },
    Consulta: inquiryFull(inquiry, adminMail),
  }
}
