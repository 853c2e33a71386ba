/*
 * Reading inquiries as an app sees them (docs/design.md §3): those of listings it
 * published, plus catalogue inquiries when its link to the agency receives
 * other leads. Every query states that condition. The list reads through the
 * index (agency_id, audience_app_id, received_at desc, id desc): one ordered
 * range per audience (the app, and 0 for catalogue inquiries), merged.
 */
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import AgencyDirectory from '#agencies/services/agency_directory'
import { poolQuery } from '#core/database/pool_query'
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

type Rows = DatabaseQueryBuilderContract

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

/** The app's part of one agency's inquiries. */
function visibleTo(query: Rows, audience: Audience): Rows {
  return query.where('agency_id', audience.agencyId).whereIn('audience_app_id', audiences(audience))
}

const newestFirst = (query: Rows) => query.orderBy('received_at', 'desc').orderBy('id', 'desc')

function filtered(query: Rows, filters: ListFilters): Rows {
  query
    .where('received_at', '>=', filters.from.toJSDate())
    .where('received_at', '<', filters.to.toJSDate())
  if (filters.operatorEmail) query.where('operator_email', filters.operatorEmail.toLowerCase())
  if (filters.externalId) query.whereRaw('lower(external_id) = lower(?)', [filters.externalId])
  return query
}

const inquiries = () => db.from('inquiries')

/** Ordered, limited ranges as one `inquiries` relation (each keeps its ORDER BY and LIMIT). */
function unionAll(parts: Rows[]) {
  const compiled = parts.map((part) => part.toSQL())
  return db.raw(
    `(${compiled.map(({ sql }) => `(${sql})`).join(' union all ')}) as inquiries`,
    compiled.flatMap(({ bindings }) => bindings)
  ) as any
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
    const range = (audienceAppId: number) =>
      newestFirst(
        filtered(
          inquiries()
            .select('*')
            .where('agency_id', audience.agencyId)
            .where('audience_app_id', audienceAppId),
          filters
        )
      )
    const [own, other] = audiences(audience)
    // Two audiences: two ordered index ranges, each cut at offset + perPage, merged.
    const rows =
      other === undefined
        ? range(own)
        : newestFirst(
            db
              .from(unionAll([own, other].map((id) => range(id).limit(offset + filters.perPage))))
              .select('*')
          )
    const narrowed = filters.operatorEmail || filters.externalId
    // Built by knex, run without its runner: Lucid's and knex's per-query work cost a
    // noticeable share of a page (the list is the costliest read).
    const { sql, bindings } = rows.limit(filters.perPage).offset(offset).toSQL().toNative()
    const [page, total] = await Promise.all([
      poolQuery(sql, bindings as unknown[]),
      narrowed
        ? this.#count(filtered(visibleTo(inquiries(), audience), filters))
        : this.#countByHour(audience, filters),
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
    const email = filters.operatorEmail.toLowerCase()
    const catalogueAgencies = await db
      .from('inquiries')
      .where('operator_email', email)
      .whereNull('app_id')
      .distinct('agency_id')
    const openTo: number[] = []
    for (const { agency_id: agencyId } of catalogueAgencies) {
      const apps = await this.agencies.appsReceivingOtherLeads(agencyId)
      if (apps.includes(appId)) {
        openTo.push(agencyId)
      }
    }
    const scoped = () =>
      filtered(
        inquiries().where((visible) => {
          visible.where('audience_app_id', appId)
          if (openTo.length > 0) {
            visible.orWhere((other) =>
              other.where('audience_app_id', OTHER_LEADS).whereIn('agency_id', openTo)
            )
          }
        }),
        filters
      )
    const [rows, total] = await Promise.all([
      newestFirst(scoped().select('*'))
        .limit(filters.perPage)
        .offset((filters.page - 1) * filters.perPage),
      this.#count(scoped()),
    ])
    const page = rows.map(toFields)
    const adminMails = new Map<number, string>()
    for (const agencyId of new Set(page.map((inquiry) => inquiry.agencyId))) {
      const admin = await this.agencies.admin(agencyId)
      if (admin) adminMails.set(agencyId, admin.email)
    }
    return { inquiries: page, total, adminMails }
  }

  /**
   * The period's total from the hourly counters (inquiry_hour_counts, kept by
   * a trigger): whole UTC hours summed, the partial hours at either end
   * counted row by row — exact for any period, a few hundred small rows read.
   */
  async #countByHour(audience: Audience, filters: ListFilters) {
    const from = filters.from.toUTC()
    const to = filters.to.toUTC()
    const firstHour = from.startOf('hour').equals(from)
      ? from
      : from.startOf('hour').plus({ hours: 1 })
    const lastHour = to.startOf('hour')
    if (firstHour >= lastHour)
      return this.#count(filtered(visibleTo(inquiries(), audience), filters))
    const [row] = await poolQuery<{ total: string }>(
      `select coalesce((select sum(total) from inquiry_hour_counts
          where agency_id = $1 and audience_app_id = any($2::integer[]) and hour >= $3 and hour < $4), 0)
        + (select count(*) from inquiries
          where agency_id = $1 and audience_app_id = any($2::integer[])
            and ((received_at >= $5 and received_at < $3) or (received_at >= $4 and received_at < $6))) as total`,
      [
        audience.agencyId,
        audiences(audience),
        firstHour.toJSDate(),
        lastHour.toJSDate(),
        from.toJSDate(),
        to.toJSDate(),
      ]
    )
    return Number(row.total)
  }

  async #count(query: Rows) {
    const [row] = await query.count('* as total')
    return Number(row.total)
  }
}
