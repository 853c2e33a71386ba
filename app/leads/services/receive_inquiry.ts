/*
 * The one intake path of inquiries (API and buyers' form): validates, takes
 * the vehicle and operator snapshot, and commits the inquiry together with
 * every delivery it triggers in one transaction — no lead is accepted
 * without its notifications queued.
 */
import { randomBytes } from 'node:crypto'
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import { errors as vineErrors } from '@vinejs/vine'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import { errorsFromVine } from '#core/http/exception_handler'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory from '#agencies/services/agency_directory'
import ListingDirectory from '#listings/services/listing_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import Inquiry, { type OperationInfo, type VehicleSnapshot } from '#leads/models/inquiry'
import NotificationConfig from '#leads/models/notification_config'
import { intakeValidator, type IntakeInput } from '#leads/validators/inquiry_validators'
import { planDeliveries } from './notification_fanout.js'
import InquiryEvents from './inquiry_events.js'

export type ReceiveInquiryInput = {
  /** The app sending the inquiry (API caller, or the listing's app for the buyers' form). */
  appId: number
  agencyId: number
  /** The agency as the caller already read it (its trade name is not read again). */
  agency?: { tradeName: string }
  /** The wire body: `{ExternalId | VersionId, OrigenLead, Interesado}`. */
  input: unknown
}

export type ReceiveFailure = 'invalid' | 'unavailable'

const SID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'

/** A short public id: 10 characters of an unambiguous alphabet (~50 bits). */
export function newSid() {
  const bytes = randomBytes(10)
  return [...bytes].map((byte) => SID_ALPHABET[byte % SID_ALPHABET.length]).join('')
}

const money = (valor: { Moneda: string; Importe: number } | null | undefined) =>
  valor ? { currency: valor.Moneda, amount: valor.Importe } : null

/** Blank optional texts count as absent (forms send ''). */
function blanksToNull(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input
  const body = { ...(input as Record<string, unknown>) }
  const buyer = body.Interesado
  if (buyer && typeof buyer === 'object' && !Array.isArray(buyer)) {
    body.Interesado = Object.fromEntries(
      Object.entries(buyer).map(([key, value]) => [
        key,
        typeof value === 'string' && value.trim() === '' ? null : value,
      ])
    )
  }
  for (const key of ['ExternalId', 'VersionId']) if (body[key] === '') body[key] = null
  return body
}

function operationInfo(input: IntakeInput['Interesado']['InfoOperacion']): OperationInfo | null {
  if (!input) return null
  const tradeIn = input.EntregaVehiculo
  const financing = input.FinanciacionDeseada
  return {
    tradeIn: tradeIn
      ? {
          brand: tradeIn.Marca ?? null,
          model: tradeIn.Modelo ?? null,
          versionYear: tradeIn.VersionYear ?? null,
        }
      : null,
    financing: financing
      ? { downPayment: money(financing.Adelanto), installment: money(financing.Cuota) }
      : null,
    wantsInsuranceQuote: input.QuiereCotizacionSeguro ?? null,
  }
}

@inject()
export default class ReceiveInquiry {
  constructor(
    private agencies: AgencyDirectory,
    private listings: ListingDirectory,
    private vehicles: VehicleResolver,
    private deliveries: DeliveryService
  ) {}

  async execute({
    appId,
    agencyId,
    agency: known,
    input,
  }: ReceiveInquiryInput): Promise<Result<Inquiry, ReceiveFailure>> {
    let body: IntakeInput
    try {
      body = await intakeValidator.validate(blanksToNull(input))
    } catch (error) {
      if (error instanceof vineErrors.E_VALIDATION_ERROR) {
        return fail('invalid', { errors: errorsFromVine(error.messages) })
      }
      throw error
    }
    const rules = this.#rules(body)
    if (rules) return fail('invalid', { errors: rules })

    const [subject, admin] = await Promise.all([
      this.#subject(agencyId, body),
      this.agencies.admin(agencyId),
    ])
    if (!subject.ok) return subject
    if (!admin) return fail('invalid', { errors: { _: ['La agencia no existe.'] } })
    const { vehicle, visibleAppId, operatorId, listingId, versionId, kind } = subject.value

    const audience =
      visibleAppId !== null ? [visibleAppId] : await this.agencies.appsReceivingOtherLeads(agencyId)
    // The agency and the listing's operator are read only when not already known.
    const [agency, operators, configs] = await Promise.all([
      known ?? this.agencies.forApp(visibleAppId ?? appId, admin.email),
      this.agencies.operators(operatorId && operatorId !== admin.id ? [operatorId] : []),
      audience.length === 0
        ? Promise.resolve([] as NotificationConfig[])
        : NotificationConfig.query().where('agency_id', agencyId).whereIn('app_id', audience),
    ])
    const operator =
      (operatorId && operatorId !== admin.id ? operators.get(operatorId) : null) ?? admin

    const buyer = body.Interesado
    const receivedAt = DateTime.now()
    const inquiry = new Inquiry().merge({
      sid: newSid(),
      appId: visibleAppId,
      sourceAppId: appId,
      agencyId,
      listingId,
      versionId,
      operatorId: operator.id,
      operatorEmail: operator.email,
      kind,
      origin: body.OrigenLead,
      externalId: vehicle.externalId,
      vehicle,
      interest: buyer.Interes ?? null,
      firstName: buyer.Nombre ?? null,
      lastName: buyer.Apellido ?? null,
      email: buyer.Email?.toLowerCase() ?? null,
      phone: buyer.Telefono ?? null,
      documentId: buyer.DocIdentidad ?? null,
      province: buyer.Provincia ?? null,
      city: buyer.Ciudad ?? null,
      comment: buyer.Comentario ?? null,
      operationInfo: operationInfo(buyer.InfoOperacion),
      receivedAt,
      resendOpen: true,
      resendClosesAt: receivedAt.plus({ days: settings.resendWindowDays }),
    })
    const planned = planDeliveries(
      {
        inquiry,
        agency: { adminMail: admin.email, tradeName: agency?.tradeName ?? admin.email },
        operator,
      },
      configs
    )

    await db.transaction(async (trx) => {
      inquiry.useTransaction(trx)
      await inquiry.save()
      for (const delivery of planned) {
        await this.deliveries.create(
          {
            channel: delivery.channel,
            ownerType: 'inquiry',
            ownerId: String(inquiry.id),
            appId: delivery.appId,
            target: delivery.target,
            payload: delivery.payload,
            queue: delivery.queue,
            messageId: inquiry.webhookId,
          },
          trx
        )
      }
      await new InquiryEvents().received(inquiry, audience, admin.email, trx)
    })
    return ok(inquiry)
  }

  /** Exactly one subject (listing or catalogue version); some way to reach the buyer. */
  #rules(body: IntakeInput): Record<string, string[]> | null {
    const errors: Record<string, string[]> = {}
    const hasListing = Boolean(body.ExternalId)
    const hasVersion = body.VersionId !== null && body.VersionId !== undefined
    if (hasListing === hasVersion) {
      errors._ = ['Indique ExternalId (publicación) o VersionId (catálogo), uno de los dos.']
    }
    if (!body.Interesado.Email && !body.Interesado.Telefono) {
      errors.Interesado = ['Indique Email o Telefono del interesado.']
    }
    return Object.keys(errors).length > 0 ? errors : null
  }

  /** The snapshot of the listing or catalogue version asked about. */
  async #subject(agencyId: number, body: IntakeInput) {
    if (body.ExternalId) {
      const listing = await this.listings.forInquiry(agencyId, body.ExternalId)
      if (!listing)
        return fail('invalid', {
          errors: { ExternalId: ['La publicación no existe en la agencia.'] },
        })
      const state = String(listing.state).toLowerCase()
      if (state !== 'active' && state !== 'activa') {
        return fail('unavailable', {
          errors: { ExternalId: ['La publicación no está activa: no recibe consultas.'] },
        })
      }
      const vehicle: VehicleSnapshot = {
        externalId: listing.externalId,
        refStock: listing.refStock,
        brand: listing.brand,
        model: listing.model,
        version: listing.version,
        versionYear: listing.versionYear,
        mileage: listing.mileage,
        color: listing.color,
        bodyType: listing.bodyType,
        condition: listing.condition,
        price: listing.price,
        downPayment: listing.downPayment,
        installment: listing.installment,
      }
      return ok({
        vehicle,
        visibleAppId: listing.appId as number | null,
        operatorId: listing.operatorId as number | null,
        listingId: listing.id as number | null,
        versionId: null as number | null,
        kind: 'listing' as const,
      })
    }
    const found = await this.vehicles.versionById(body.VersionId!)
    if (!found.ok)
      return fail('invalid', { errors: { VersionId: ['La versión no existe en el catálogo.'] } })
    const version = found.value
    const vehicle: VehicleSnapshot = {
      externalId: '',
      refStock: null,
      brand: version.brandName,
      model: version.modelName,
      version: version.name,
      versionYear: version.year,
      mileage: 0,
      color: null,
      bodyType: version.bodyType,
      condition: 'Nuevo',
      price: null,
      downPayment: null,
      installment: null,
    }
    return ok({
      vehicle,
      visibleAppId: null as number | null,
      operatorId: null as number | null,
      listingId: null as number | null,
      versionId: version.id as number | null,
      kind: 'catalog' as const,
    })
  }
}
