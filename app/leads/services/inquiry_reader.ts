/*
 * Reading inquiries as an app sees them (docs/design.md §3): those of listings it
 * published, plus catalogue inquiries when its link to the agency receives
 * other leads. Every query states that condition. The list reads through the
 * index (agency_id, audience_app_id, received_at desc, id desc): one ordered
 * range per audience (the app, and 0 for catalogue inquiries), merged.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import AgencyDirectory from '#agencies/services/agency_directory'
import { poolQuery, SqlParams } from '#core/database/pool_query'
import Inquiry, { type InquiryFields } from '#leads/models/inquiry'

export type Audience = { appId: number; agencyId: number; receivesOtherLeads: boolean }

export type ListFilters = {
  operatorEmail?: string
  externalId?: string
  /** Inclusive start and exclusive end of the reception period. */
  from: DateTime
  to: DateTime
  page: number
  perPage: number
}

export type InquiryPage = {
  inquiries: InquiryFields[]
  total: number
  adminMails: Map<number, string>
}

/** Catalogue inquiries (no publishing app) have audience 0. */
const OTHER_LEADS = 0

const audiences = (audience: Audience) =>
  audience.receivesOtherLeads ? [audience.appId, OTHER_LEADS] : [audience.appId]

/**
 * A list reads plain rows, not models: hydrating 100 Lucid models cost more
 * than the page's query. It selects `*`, not the columns it reads: PostgreSQL
 * then hands on the stored row as is, where a column list costs a projection
 * of every row an OFFSET skips (page 99 of 100 000 took 40 % longer).
 */
function toFields(row: Record<string, any>): InquiryFields {
  return {
    sid: row.sid,
    agencyId: row.agency_id,
    kind: row.kind,
    origin: row.origin,
    externalId: row.external_id,
    vehicle: row.vehicle,
    interest: row.interest,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    documentId: row.document_id,
    province: row.province,
    city: row.city,
    comment: row.comment,
    operationInfo: row.operation_info,
    operatorEmail: row.operator_email,
    receivedAt: row.received_at,
  }
}

const NEWEST_FIRST = 'order by received_at desc, id desc'
const HOUR_MS = 3_600_000

/** The period and the optional narrowing filters, as `and …` conditions. */
function listConditions(params: SqlParams, filters: ListFilters) {
  let where = ` and received_at >= ${params.add(filters.from.toJSDate())} and received_at < ${params.add(filters.to.toJSDate())}`
  if (filters.operatorEmail)
    where += ` and operator_email = ${params.add(filters.operatorEmail.toLowerCase())}`
  if (filters.externalId)
    where += ` and lower(external_id) = lower(${params.add(filters.externalId)})`
  return where
}

@inject()
export default class InquiryReader {
  constructor(private agencies: AgencyDirectory) {}

  /**
   * One inquiry by sid: those the app sees, and those it sent itself (a partner
   * posting on another app's listing can read back what its 201 linked to).
   */
  find(audience: Audience, sid: string) {
    return Inquiry.query()
      .where('sid', sid.toLowerCase())
      .where('agency_id', audience.agencyId)
      .where((visible) =>
        visible
          .whereIn('audience_app_id', audiences(audience))
          .orWhere('source_app_id', audience.appId)
      )
      .first()
  }

  /** One page of an agency's inquiries, newest first, and the total. */
  async page(audience: Audience, filters: ListFilters, adminMail: string): Promise<InquiryPage> {
    const offset = (filters.page - 1) * filters.perPage
    const params = new SqlParams()
    const agency = params.add(audience.agencyId)
    const where = listConditions(params, filters)
    const range = (audienceAppId: number, limit: number) =>
      `select * from inquiries where agency_id = ${agency} and audience_app_id = ${params.add(audienceAppId)}${where}
       ${NEWEST_FIRST} limit ${params.add(limit)}`
    const [own, other] = audiences(audience)
    // Two audiences: two ordered index ranges, each cut at offset + perPage, merged.
    const rows =
      other === undefined
        ? range(own, filters.perPage)
        : `select * from ((${range(own, offset + filters.perPage)}) union all (${range(other, offset + filters.perPage)})) as inquiries
           ${NEWEST_FIRST} limit ${params.add(filters.perPage)}`
    // Written out, not built by knex: the query builder's compile was a noticeable share
    // of a page's CPU (the list is the costliest read).
    const sql = `${rows} offset ${params.add(offset)}`
    const narrowed = filters.operatorEmail || filters.externalId
    const [page, total] = await Promise.all([
      poolQuery(sql, params.values),
      narrowed ? this.#count(audience, filters) : this.#countByHour(audience, filters),
    ])
    return {
      inquiries: page.map(toFields),
      total,
      adminMails: new Map([[audience.agencyId, adminMail]]),
    }
  }

  /**
   * One page of the inquiries an operator is responsible for, across the
   * agencies the app works with (GET /v3/consultas?operador=, no adminmail).
   */
  async pageForOperator(
    appId: number,
    filters: ListFilters & { operatorEmail: string }
  ): Promise<InquiryPage> {
    const catalogueAgencies = await poolQuery<{ agency_id: number }>(
      'select distinct agency_id from inquiries where operator_email = $1 and app_id is null',
      [filters.operatorEmail.toLowerCase()]
    )
    const openTo: number[] = []
    for (const { agency_id: agencyId } of catalogueAgencies) {
      const apps = await this.agencies.appsReceivingOtherLeads(agencyId)
      if (apps.includes(appId)) {
        openTo.push(agencyId)
      }
    }
    const params = new SqlParams()
    const app = params.add(appId)
    const visible = openTo.length
      ? `(audience_app_id = ${app} or (audience_app_id = ${OTHER_LEADS} and agency_id = any(${params.add(openTo)}::integer[])))`
      : `audience_app_id = ${app}`
    const where = visible + listConditions(params, filters)
    // The count binds the same values, without the page's limit and offset.
    const counted = [...params.values]
    const offset = (filters.page - 1) * filters.perPage
    const [rows, [count]] = await Promise.all([
      poolQuery(
        `select * from inquiries where ${where} ${NEWEST_FIRST}
         limit ${params.add(filters.perPage)} offset ${params.add(offset)}`,
        params.values
      ),
      poolQuery<{ total: string }>(
        `select count(*) as total from inquiries where ${where}`,
        counted
      ),
    ])
    const page = rows.map(toFields)
    const adminMails = new Map<number, string>()
    for (const agencyId of new Set(page.map((inquiry) => inquiry.agencyId))) {
      const admin = await this.agencies.admin(agencyId)
      if (admin) adminMails.set(agencyId, admin.email)
    }
    return { inquiries: page, total: Number(count.total), adminMails }
  }

  /**
   * The period's total from the hourly counters (inquiry_hour_counts, kept by
   * a trigger): whole UTC hours summed, the partial hours at either end
   * counted row by row — exact for any period, a few hundred small rows read.
   */
  async #countByHour(audience: Audience, filters: ListFilters) {
    const from = filters.from.toMillis()
    const to = filters.to.toMillis()
    const firstHour = Math.ceil(from / HOUR_MS) * HOUR_MS
    const lastHour = Math.floor(to / HOUR_MS) * HOUR_MS
    if (firstHour >= lastHour) return this.#count(audience, filters)
    const [row] = await poolQuery<{ total: string }>(
      `select coalesce((select sum(total) from inquiry_hour_counts
          where agency_id = $1 and audience_app_id = any($2::integer[]) and hour >= $3 and hour < $4), 0)
        + (select count(*) from inquiries
          where agency_id = $1 and audience_app_id = any($2::integer[])
            and ((received_at >= $5 and received_at < $3) or (received_at >= $4 and received_at < $6))) as total`,
      [
        audience.agencyId,
        audiences(audience),
        new Date(firstHour),
        new Date(lastHour),
        new Date(from),
        new Date(to),
      ]
    )
    return Number(row.total)
  }

  /** The period's total row by row (a narrowed list, or a period shorter than an hour). */
  async #count(audience: Audience, filters: ListFilters) {
    const params = new SqlParams()
    const visible = `agency_id = ${params.add(audience.agencyId)} and audience_app_id = any(${params.add(audiences(audience))}::integer[])`
    const where = listConditions(params, filters)
    const [row] = await poolQuery<{ total: string }>(
      `select count(*) as total from inquiries where ${visible}${where}`,
      params.values
    )
    return Number(row.total)
  }
}
