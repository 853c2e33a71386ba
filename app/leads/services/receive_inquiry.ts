/*
 * The one intake path of inquiries (API and buyers' form): takes the
 * already validated request (#leads/validators/intake_request), snapshots the
 * vehicle and the responsible operator, and commits the inquiry together with
 * every delivery it triggers in one unit of work — no lead is accepted
 * without its notifications queued.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import { UnitOfWork, type Tx } from '#core/database/unit_of_work'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory, { type OperatorView } from '#agencies/services/agency_directory'
import ListingDirectory from '#listings/services/listing_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import type { OperationInfo, ReceivedInquiry, VehicleSnapshot } from '#leads/models/inquiry'
import InquiryStore from '#leads/stores/inquiry_store'
import { planDeliveries } from './notification_fanout.js'
import InquiryEvents from './inquiry_events.js'
import SidPool, { inquiryWebhookId } from './sid_pool.js'

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

@inject()
export default class ReceiveInquiry {
  constructor(
    private agencies: AgencyDirectory,
    private listings: ListingDirectory,
    private vehicles: VehicleResolver,
    private deliveries: DeliveryService,
    private inquiries: InquiryStore,
    private events: InquiryEvents,
    private sids: SidPool,
    private unitOfWork: UnitOfWork
  ) {}

  async execute({
    appId,
    agencyId,
    agency: known,
    request,
  }: ReceiveInquiryInput): Promise<Result<ReceivedInquiry, ReceiveFailure>> {
    // Statements of an intake (docs/decisions/performance.md, Performance, "The intake's transaction skips
    // knex's placeholder rewriting": 8 per intake of an administrator's listing with one
    // channel): the admin and the listing (in parallel), BEGIN, the inquiry with its
    // configurations, a delivery and its job per channel, the event, COMMIT. The agency is
    // the one the controller read ("intake reuses the agency").
    const [subject, admin] = await Promise.all([
      this.#subject(agencyId, request.subject),
      this.agencies.admin(agencyId),
    ])
    if (!subject.ok) return subject
    if (!admin) return fail('agency_not_found')
    const { vehicle, visibleAppId, listingId, versionId, kind } = subject.value
    // Only a collaborator can be detached (desasociar refuses the administrator):
    // an inquiry answered by the administrator needs no handover lock.
    const handedOver = subject.value.operatorId !== null && subject.value.operatorId !== admin.id

    const [audience, agency] = await Promise.all([
      visibleAppId !== null ? [visibleAppId] : this.agencies.appsReceivingOtherLeads(agencyId),
      known ?? this.agencies.forApp(visibleAppId ?? appId, admin.email),
    ])

    const { buyer } = request
    const receivedAt = DateTime.now()
    const sid = this.sids.next()
    const inquiry = await this.unitOfWork.run(async (tx) => {
      const operator = handedOver
        ? await this.#operatorAfterHandovers(
            agencyId,
            subject.value.operatorId,
            vehicle.externalId,
            admin,
            tx
          )
        : admin
      const received: ReceivedInquiry = {
        id: 0, // set by the insert
        sid,
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
      const { id, configs } = await this.inquiries.insertReadingConfigs(received, audience, tx)
      received.id = id
      const planned = planDeliveries(
        {
          inquiry: received,
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
            ownerId: String(received.id),
            appId: delivery.appId,
            target: delivery.target,
            payload: delivery.payload,
            queue: delivery.queue,
            messageId: inquiryWebhookId(received.sid),
          },
          tx
        )
      }
      await this.events.received(received, audience, admin.email, tx)
      return received
    })
    return ok(inquiry)
  }

  /**
   * The listing's responsible collaborator as it is once no desasociar can
   * run: the agency's handover lock is held (shared) until the inquiry
   * commits, so a detach either finished before — and the listing, read again
   * here, names the receiving operator — or waits and then moves this inquiry
   * too (docs/design.md §13; issue 24, "an inquiry racing the detachment of its
   * listing's operator"). Costs a collaborator's inquiry two statements (the lock and
   * the listing read again); the operator's read moved into the transaction.
   */
  async #operatorAfterHandovers(
    agencyId: number,
    readOperatorId: number | null,
    externalId: string,
    admin: OperatorView,
    tx: Tx
  ): Promise<OperatorView> {
    await this.agencies.holdMembers(agencyId, tx)
    const listing = await this.listings.forInquiry(agencyId, externalId, tx)
    const operatorId = listing?.operatorId ?? readOperatorId
    if (!operatorId || operatorId === admin.id) return admin
    const operators = await this.agencies.operators([operatorId], tx)
    return operators.get(operatorId) ?? admin
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
