/*
 * Reading inquiries as an app sees them (docs/design.md §3): those of listings it
 * published, plus catalogue inquiries when its link to the agency receives
 * other leads. Every read states that condition; the SQL is InquiryStore's.
 */
import { inject } from '@adonisjs/core'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory from '#agencies/services/agency_directory'
import type { InquiryFields } from '#leads/models/inquiry'
import InquiryStore, {
  OTHER_LEADS,
  type ListFilters,
  type Visibility,
} from '#leads/stores/inquiry_store'

export type { ListFilters }

export type Audience = { appId: number; agencyId: number; receivesOtherLeads: boolean }

export type InquiryPage = {
  inquiries: InquiryFields[]
  total: number
  adminMails: Map<number, string>
}

const HOUR_MS = 3_600_000

const visibility = (audience: Audience): Visibility => ({
  agencyId: audience.agencyId,
  audiences: audience.receivesOtherLeads ? [audience.appId, OTHER_LEADS] : [audience.appId],
})

@inject()
export default class InquiryReader {
  constructor(
    private agencies: AgencyDirectory,
    private inquiries: InquiryStore,
    private deliveryService: DeliveryService
  ) {}

  /** The app's deliveries of an inquiry (`entregas`), each with its attempts. */
  deliveries(inquiryId: number, appId: number) {
    return this.deliveryService.list('inquiry', inquiryId, { appId })
  }

  /**
   * One inquiry by sid: those the app sees, and those it sent itself (a partner
   * posting on another app's listing can read back what its 201 linked to).
   */
  find(audience: Audience, sid: string) {
    return this.inquiries.findBySid(visibility(audience), audience.appId, sid)
  }

  /**
   * One page of an agency's inquiries, newest first, and the total: two
   * statements (docs/decisions/performance.md, Performance, "The inquiry list's default period").
   */
  async page(audience: Audience, filters: ListFilters, adminMail: string): Promise<InquiryPage> {
    const visible = visibility(audience)
    const narrowed = filters.operatorEmail || filters.externalId
    const [inquiries, total] = await Promise.all([
      this.inquiries.page(visible, filters),
      narrowed ? this.inquiries.count(visible, filters) : this.#countByHour(visible, filters),
    ])
    return { inquiries, total, adminMails: new Map([[audience.agencyId, adminMail]]) }
  }

  /**
   * One page of the inquiries an operator is responsible for, across the
   * agencies the app works with (GET /v3/consultas?operador=, no adminmail).
   */
  async pageForOperator(
    appId: number,
    filters: ListFilters & { operatorEmail: string }
  ): Promise<InquiryPage> {
    const openTo: number[] = []
    for (const agencyId of await this.inquiries.catalogueAgenciesOf(filters.operatorEmail)) {
      const apps = await this.agencies.appsReceivingOtherLeads(agencyId)
      if (apps.includes(appId)) openTo.push(agencyId)
    }
    const { inquiries, total } = await this.inquiries.operatorPage(appId, openTo, filters)
    const adminMails = new Map<number, string>()
    for (const agencyId of new Set(inquiries.map((inquiry) => inquiry.agencyId))) {
      const admin = await this.agencies.admin(agencyId)
      if (admin) adminMails.set(agencyId, admin.email)
    }
    return { inquiries, total, adminMails }
  }

  /**
   * The period's total from the hourly counters: whole UTC hours summed, the
   * partial hours at either end counted row by row — exact for any period.
   */
  #countByHour(visible: Visibility, filters: ListFilters) {
    const from = filters.from.toMillis()
    const to = filters.to.toMillis()
    const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS
    const lastHour = Math.floor(to / HOUR_MS) * HOUR_MS
    if (firstHour >= lastHour) return this.inquiries.count(visible, filters)
    return this.inquiries.countByHour(
      visible,
      new Date(from),
      new Date(firstHour),
      new Date(lastHour),
      new Date(to)
    )
  }
}
