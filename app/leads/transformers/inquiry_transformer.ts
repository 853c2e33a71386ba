/*
 * Code → wire for inquiries: the Consulta of spec §2.11, its reference, the
 * webhook payload of DESIGN.md §9 and the paged list of spec §2.12.
 */
import { DateTime } from 'luxon'
import { link, path, type Links } from '#core/http/links'
import { settings } from '#core/settings'
import type Inquiry from '#leads/models/inquiry'
import type { Money } from '#leads/models/inquiry'

const valor = (money: Money | null | undefined) =>
  money ? { Moneda: money.currency, Importe: Number(money.amount) } : null

/** ISO 8601 with the offset of TZ. */
export function moment(value: DateTime | Date): string {
  const dateTime = value instanceof Date ? DateTime.fromJSDate(value) : value
  return dateTime.setZone(settings.timezone).toISO({ suppressMilliseconds: true })!
}

export function inquiryPath(adminMail: string, sid: string) {
  return path('consultas', adminMail, sid)
}

function inquiryLinks(adminMail: string, sid: string): Links {
  const self = inquiryPath(adminMail, sid)
  return {
    self: link(self),
    entregas: link(`${self}/entregas`),
    resendwebhook: link(`${self}/resendwebhook`, { method: 'POST' }),
  }
}

export function vehicleTitle(inquiry: Inquiry) {
  const { brand, model, version, versionYear } = inquiry.vehicle
  return [brand, model, version, versionYear].filter((part) => part !== null && part !== '').join(' ')
}

export const InquiryTransformer = {
  full(inquiry: Inquiry, adminMail: string) {
    const vehicle = inquiry.vehicle
    const info = inquiry.operationInfo
    return {
      Momento: moment(inquiry.receivedAt),
      OrigenLead: inquiry.origin,
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
        Estado: vehicle.condition,
        Precio: valor(vehicle.price),
        Anticipo: valor(vehicle.downPayment),
        Cuota: valor(vehicle.installment),
      },
      Interesado: {
        Interes: inquiry.interest,
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
                ? { Marca: info.tradeIn.brand, Modelo: info.tradeIn.model, VersionYear: info.tradeIn.versionYear }
                : null,
              FinanciacionDeseada: info.financing
                ? { Adelanto: valor(info.financing.downPayment), Cuota: valor(info.financing.installment) }
                : null,
              QuiereCotizacionSeguro: info.wantsInsuranceQuote,
            }
          : null,
      },
      OperadorResponsable: inquiry.operatorEmail,
      _links: inquiryLinks(adminMail, inquiry.sid),
    }
  },

  /** Reference: buyer e-mail, vehicle, ExternalId (spec §2.11). */
  ref(inquiry: Inquiry, adminMail: string) {
    const buyer = inquiry.email ?? inquiry.phone ?? ''
    const title = [buyer, vehicleTitle(inquiry), inquiry.externalId].filter(Boolean).join(', ')
    return { href: inquiryPath(adminMail, inquiry.sid), title }
  },

  /** The `PublicacionConsultada` webhook payload (DESIGN.md §9). */
  webhookPayload(inquiry: Inquiry, adminMail: string, options: { resend?: boolean; at?: DateTime } = {}) {
    return {
      Tipo: 'PublicacionConsultada',
      Momento: moment(options.at ?? inquiry.receivedAt),
      ...(options.resend ? { Reenvio: true } : {}),
      Agencia: { AdminMail: adminMail, href: path('agencias', adminMail) },
      Consulta: InquiryTransformer.full(inquiry, adminMail),
    }
  },
}
