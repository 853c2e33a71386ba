/*
 * The one intake path of inquiries (API and buyers' form): takes the
 * already validated request (#leads/validators/intake_request), the vehicle and operator snapshot, and commits the inquiry together with
 * every delivery it triggers in one transaction — no lead is accepted
 * without its notifications queued.
 */
import { randomFillSync } from 'node:crypto'
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import { poolQuery } from '#core/database/pool_query'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory from '#agencies/services/agency_directory'
import ListingDirectory from '#listings/services/listing_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import {
  inquiryWebhookId,
  type OperationInfo,
  type ReceivedInquiry,
  type VehicleSnapshot,
} from '#leads/models/inquiry'
import { planDeliveries, type FanoutConfig } from './notification_fanout.js'
import InquiryEvents from './inquiry_events.js'

export type ReceiveInquiryInput = {
  /** The app sending the inquiry (API caller, or the listing's app for the buyers' form). */
  appId: number
  agencyId: number
  /** The agency as the caller already read it (its trade name is not read again). */
  agency?: { tradeName: string }
  request: InquiryRequest
}

/** What a buyer asks about, and who they are (docs/design.md §6). */
export type InquiryRequest = {
  subject: { kind: 'listing'; externalId: string } | { kind: 'catalog'; versionId: number }
  origin: string
  buyer: {
    interest: string | null
    firstName: string | null
    lastName: string | null
    /** Lower-cased. */
    email: string | null
    phone: string | null
    documentId: string | null
    province: string | null
    city: string | null
    comment: string | null
    operationInfo: OperationInfo | null
  }
}

export type ReceiveFailure =
  'listing_not_found' | 'listing_inactive' | 'version_not_found' | 'agency_not_found'

/**
 * The inquiry's row and, in the same round trip, the notification
 * configurations of its audience (`$26::integer[]`): a data-modifying WITH always
 * runs, and the left join answers one row even when there is no configuration.
 * Only what the fan-out reads is selected, into plain objects.
 */
const INSERT_READING_CONFIGS = `with inquiry as (
    insert into inquiries (sid, app_id, source_app_id, agency_id, listing_id, version_id,
      operator_id, operator_email, kind, origin, external_id, vehicle, interest, first_name,
      last_name, email, phone, document_id, province, city, comment, operation_info,
      received_at, resend_open, resend_closes_at)
    values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25)
    returning id
  )
  select inquiry.id as inquiry_id, c.id, c.app_id, c.webhook_active, c.webhook_callback,
    c.adf_hook_active, c.adf_hook_callback, c.adf_mail_active, c.adf_mail_email,
    c.html_mail_active, c.html_mail_bcc
  from inquiry
  left join notification_configs c on c.agency_id = $4 and c.app_id = any($26::integer[])`

const SID_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789'

const SID_LENGTH = 10
/** Random bytes drawn SID_LENGTH at a time: one `randomFillSync` per 100 sids, not a `randomBytes` per sid. */
const sidPool = Buffer.allocUnsafe(SID_LENGTH * 100)
let sidPoolAt = sidPool.length

/** A short public id: 10 characters of an unambiguous alphabet (~50 bits). */
export function newSid() {
  if (sidPoolAt + SID_LENGTH > sidPool.length) {
    randomFillSync(sidPool)
    sidPoolAt = 0
  }
  let sid = ''
  // 32 letters: a byte modulo 32 is unbiased.
  for (let i = sidPoolAt; i < sidPoolAt + SID_LENGTH; i++)
    sid += SID_ALPHABET[sidPool[i] % SID_ALPHABET.length]
  sidPoolAt += SID_LENGTH
  return sid
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
    request,
  }: ReceiveInquiryInput): Promise<Result<ReceivedInquiry, ReceiveFailure>> {
    const [subject, admin] = await Promise.all([
      this.#subject(agencyId, request.subject),
      this.agencies.admin(agencyId),
    ])
    if (!subject.ok) return subject
    if (!admin) return fail('agency_not_found')
    const { vehicle, visibleAppId, operatorId, listingId, versionId, kind } = subject.value

    const audience =
      visibleAppId !== null ? [visibleAppId] : await this.agencies.appsReceivingOtherLeads(agencyId)
    // The agency and the listing's operator are read only when not already known.
    const [agency, operators] = await Promise.all([
      known ?? this.agencies.forApp(visibleAppId ?? appId, admin.email),
      this.agencies.operators(operatorId && operatorId !== admin.id ? [operatorId] : []),
    ])
    const operator =
      (operatorId && operatorId !== admin.id ? operators.get(operatorId) : null) ?? admin

    const { buyer } = request
    const receivedAt = DateTime.now()
    const inquiry: ReceivedInquiry = {
      id: 0, // set by the insert
      sid: newSid(),
      appId: visibleAppId,
      sourceAppId: appId,
      agencyId,
      listingId,
      versionId,
      operatorId: operator.id,
      operatorEmail: operator.email,
      kind,
      origin: request.origin,
      externalId: vehicle.externalId,
      vehicle,
      ...buyer,
      receivedAt,
      resendOpen: true,
      resendClosesAt: receivedAt.plus({ days: settings.resendWindowDays }),
    }

    await db.transaction(async (trx) => {
      const configs = await this.#insert(inquiry, audience, trx)
      const planned = planDeliveries(
        {
          inquiry,
          agency: { adminMail: admin.email, tradeName: agency?.tradeName ?? admin.email },
          operator,
        },
        configs
      )
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
            messageId: inquiryWebhookId(inquiry.sid),
          },
          trx
        )
      }
      await new InquiryEvents().received(inquiry, audience, admin.email, trx)
    })
    return ok(inquiry)
  }

  /** Writes the inquiry (its `id` is set) and answers the configurations that notify `audience` of it. */
  async #insert(
    inquiry: ReceivedInquiry,
    audience: number[],
    trx: TransactionClientContract
  ): Promise<FanoutConfig[]> {
    const rows = await poolQuery<Record<string, any>>(
      INSERT_READING_CONFIGS,
      [
        inquiry.sid,
        inquiry.appId,
        inquiry.sourceAppId,
        inquiry.agencyId,
        inquiry.listingId,
        inquiry.versionId,
        inquiry.operatorId,
        inquiry.operatorEmail,
        inquiry.kind,
        inquiry.origin,
        inquiry.externalId,
        JSON.stringify(inquiry.vehicle),
        inquiry.interest,
        inquiry.firstName,
        inquiry.lastName,
        inquiry.email,
        inquiry.phone,
        inquiry.documentId,
        inquiry.province,
        inquiry.city,
        inquiry.comment,
        inquiry.operationInfo === null ? null : JSON.stringify(inquiry.operationInfo),
        inquiry.receivedAt.toJSDate(),
        inquiry.resendOpen,
        inquiry.resendClosesAt.toJSDate(),
        `{${audience.join(',')}}`,
      ],
      { prepare: true, client: trx }
    )
    inquiry.id = rows[0].inquiry_id
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: row.id,
        appId: row.app_id,
        webhookActive: row.webhook_active,
        webhookCallback: row.webhook_callback,
        adfHookActive: row.adf_hook_active,
        adfHookCallback: row.adf_hook_callback,
        adfMailActive: row.adf_mail_active,
        adfMailEmail: row.adf_mail_email,
        htmlMailActive: row.html_mail_active,
        htmlMailBcc: row.html_mail_bcc,
      }))
  }

  /** The snapshot of the listing or catalogue version asked about. */
  async #subject(agencyId: number, subject: InquiryRequest['subject']) {
    if (subject.kind === 'listing') {
      const listing = await this.listings.forInquiry(agencyId, subject.externalId)
      if (!listing) return fail('listing_not_found')
      if (listing.state !== 'active') return fail('listing_inactive')
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
    const found = await this.vehicles.versionById(subject.versionId)
    if (!found.ok) return fail('version_not_found')
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
