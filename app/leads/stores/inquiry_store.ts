/*
 * The inquiries table (docs/design.md §3 visibility: `audience_app_id` is the
 * publishing app, 0 for catalogue inquiries). Style (docs/architecture.md):
 * Lucid for plain reads, written-out SQL for the intake and the list, where
 * the bench showed the query builder's cost; each says which figure.
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { DateTime } from 'luxon'
import type { Tx } from '#core/database/unit_of_work'
import { poolQuery, SqlParams } from '#core/database/pool_query'
import Inquiry, { type InquiryFields, type ReceivedInquiry } from '#leads/models/inquiry'
import type { FanoutConfig } from '#leads/services/notification_fanout'

/** An inquiry about to be written: everything but the id the insert gives it. */
export type NewInquiryRow = Omit<ReceivedInquiry, 'id'>

/** The period and the optional narrowing filters of a list. */
export type ListFilters = {
  operatorEmail?: string
  externalId?: string
  /** Inclusive start and exclusive end of the reception period. */
  from: DateTime
  to: DateTime
  page: number
  perPage: number
}

/** Whose inquiries a read may return: the agency and the audiences (app ids, 0 = catalogue). */
export type Visibility = { agencyId: number; audiences: number[] }

/**
 * What a privacy request searches a buyer's inquiries by (docs/design.md §25;
 * the rules are the buyers module's, `#buyers/services/privacy/matching`): the
 * e-mail lower-cased, the document's key (its digits, a CUIT's DNI), and the
 * digit endings a stored phone may have. Candidates: the caller decides.
 */
export type BuyerKeys = {
  email?: string | null
  documentKey?: string | null
  phoneEndings?: string[]
}

/** An inquiry found for a buyer: what suppression and export need to reach its copies. */
export type BuyerInquiry = {
  id: number
  sid: string
  agencyId: number
  appId: number | null
  sourceAppId: number | null
  kind: 'listing' | 'catalog'
}

/** A candidate of a search, with the identifiers it holds (to tell which matched). */
export type BuyerCandidate = BuyerInquiry & {
  email: string | null
  phone: string | null
  documentId: string | null
}

const buyerInquiry = (row: Record<string, any>): BuyerInquiry => ({
  id: Number(row.id),
  sid: row.sid,
  agencyId: row.agency_id,
  appId: row.app_id,
  sourceAppId: row.source_app_id,
  kind: row.kind,
})

/**
 * A document's key in SQL, exactly as index `inquiries_buyer_document_key`
 * (migration 0505) reads it: the digits, an 11-digit CUIT's digits 3–10,
 * leading zeros dropped (`documentKey` of the buyers' matching rules).
 */
const DOCUMENT_KEY = `ltrim(case when length(regexp_replace(document_id, '\\D', '', 'g')) = 11
  then substr(regexp_replace(document_id, '\\D', '', 'g'), 3, 8)
  else regexp_replace(document_id, '\\D', '', 'g') end, '0')`

/** Catalogue inquiries (no publishing app) have audience 0. */
export const OTHER_LEADS = 0

/**
 * The inquiry's columns in INSERT order, each with its value: the one place the
 * intake's column list and its parameters are written, so they cannot drift apart.
 */
const INQUIRY_COLUMNS: ReadonlyArray<readonly [string, (row: NewInquiryRow) => unknown]> = [
  ['sid', (row) => row.sid],
  ['app_id', (row) => row.appId],
  ['source_app_id', (row) => row.sourceAppId],
  ['agency_id', (row) => row.agencyId],
  ['listing_id', (row) => row.listingId],
  ['version_id', (row) => row.versionId],
  ['operator_id', (row) => row.operatorId],
  ['operator_email', (row) => row.operatorEmail],
  ['kind', (row) => row.kind],
  ['origin', (row) => row.origin],
  ['external_id', (row) => row.externalId],
  ['vehicle', (row) => JSON.stringify(row.vehicle)],
  ['interest', (row) => row.interest],
  ['first_name', (row) => row.firstName],
  ['last_name', (row) => row.lastName],
  ['email', (row) => row.email],
  ['phone', (row) => row.phone],
  ['document_id', (row) => row.documentId],
  ['province', (row) => row.province],
  ['city', (row) => row.city],
  ['comment', (row) => row.comment],
  [
    'operation_info',
    (row) => (row.operationInfo === null ? null : JSON.stringify(row.operationInfo)),
  ],
  ['received_at', (row) => row.receivedAt.toJSDate()],
  ['resend_open', (row) => row.resendOpen],
  ['resend_closes_at', (row) => row.resendClosesAt.toJSDate()],
]

const AGENCY_PARAM = `$${INQUIRY_COLUMNS.findIndex(([column]) => column === 'agency_id') + 1}`
const AUDIENCE_PARAM = `$${INQUIRY_COLUMNS.length + 1}`

/**
 * The inquiry's row and, in the same round trip, the notification
 * configurations of its audience: a data-modifying WITH always runs, and the
 * left join answers one row even when there is no configuration. Only what the
 * fan-out reads is selected, into plain objects. Written out and prepared
 * (docs/decisions/performance.md, Performance: "Intake writes its inquiry with a plain
 * INSERT that also reads the notification configurations", 10 → 9 statements
 * per inquiry; "The intake's transaction skips knex's placeholder rewriting").
 */
const INSERT_READING_CONFIGS = `with inquiry as (
    insert into inquiries (${INQUIRY_COLUMNS.map(([column]) => column).join(', ')})
    values (${INQUIRY_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})
    returning id
  )
  select inquiry.id as inquiry_id, c.id, c.app_id, c.webhook_active, c.webhook_callback,
    c.adf_hook_active, c.adf_hook_callback, c.adf_mail_active, c.adf_mail_email,
    c.html_mail_active, c.html_mail_bcc
  from inquiry
  left join notification_configs c on c.agency_id = ${AGENCY_PARAM} and c.app_id = any(${AUDIENCE_PARAM}::integer[])`

/**
 * A list reads plain rows, not models: hydrating 100 Lucid models cost more
 * than the page's query (docs/decisions/performance.md, Performance: "Lists read rows, not
 * models"). It selects `*`: PostgreSQL then hands on the stored row as is,
 * where a column list cost page 99 twice PostgreSQL's CPU ("Inquiry pages keep `select *`").
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

/**
 * The statement that finds a buyer's candidate inquiries
 * (InquiryStore.findBuyer), null when no key is usable: exported so a test can
 * read its plan (EXPLAIN). Each arm reads an index: `inquiries_buyer_email`,
 * `inquiries_buyer_document_key`, and `inquiries_buyer_phone` (reversed
 * digits, `text_pattern_ops`) once per ending, as a prefix `LIKE`.
 */
export function findBuyerQuery(
  keys: BuyerKeys,
  agencyId: number | null,
  options: { lock?: boolean } = {}
): { sql: string; values: unknown[] } | null {
  const params = new SqlParams()
  const agency = agencyId === null ? null : params.add(agencyId)
  const scoped = (condition: string) =>
    agency === null ? `(${condition})` : `(agency_id = ${agency} and ${condition})`
  const arms: string[] = []
  if (keys.email) arms.push(scoped(`lower(email) = ${params.add(keys.email.toLowerCase())}`))
  if (keys.documentKey)
    arms.push(
      scoped(`document_id is not null and ${DOCUMENT_KEY} = ${params.add(keys.documentKey)}`)
    )
  const phone = `reverse(regexp_replace(phone, '\\D', '', 'g'))`
  for (const ending of new Set(keys.phoneEndings ?? [])) {
    if (!/^\d+$/.test(ending)) continue
    arms.push(scoped(`${phone} like ${params.add(`${[...ending].reverse().join('')}%`)}`))
  }
  if (!arms.length) return null
  return {
    sql: `select id, sid, agency_id, app_id, source_app_id, kind, email, phone, document_id
        from inquiries where ${arms.join(' or ')} order by received_at, id${options.lock ? ' for share' : ''}`,
    values: params.values,
  }
}

const NEWEST_FIRST = 'order by received_at desc, id desc'

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
export default class InquiryStore {
  /** Writes the inquiry and answers its id with the configurations that notify `audience` of it. */
  async insertReadingConfigs(
    row: NewInquiryRow,
    audience: number[],
    tx?: Tx
  ): Promise<{ id: number; configs: FanoutConfig[] }> {
    const values = INQUIRY_COLUMNS.map(([, value]) => value(row))
    values.push(`{${audience.join(',')}}`)
    const rows = await poolQuery<Record<string, any>>(INSERT_READING_CONFIGS, values, {
      prepare: true,
      client: tx,
    })
    const configs = rows
      .filter((config) => config.id !== null)
      .map((config) => ({
        id: config.id,
        appId: config.app_id,
        webhookActive: config.webhook_active,
        webhookCallback: config.webhook_callback,
        adfHookActive: config.adf_hook_active,
        adfHookCallback: config.adf_hook_callback,
        adfMailActive: config.adf_mail_active,
        adfMailEmail: config.adf_mail_email,
        htmlMailActive: config.html_mail_active,
        htmlMailBcc: config.html_mail_bcc,
      }))
    return { id: rows[0].inquiry_id, configs }
  }

  /** One inquiry by sid, among those `visible` and those `sourceAppId` sent itself. */
  findBySid(visible: Visibility, sourceAppId: number, sid: string, tx?: Tx) {
    return Inquiry.query({ client: tx })
      .where('sid', sid.toLowerCase())
      .where('agency_id', visible.agencyId)
      .where((query) =>
        query.whereIn('audience_app_id', visible.audiences).orWhere('source_app_id', sourceAppId)
      )
      .first()
  }

  find(id: number | string, tx?: Tx) {
    return Inquiry.query({ client: tx }).where('id', id).first()
  }

  /**
   * One page of an agency's inquiries, newest first: one ordered range of the
   * index (agency_id, audience_app_id, received_at desc, id desc) per
   * audience, each cut at offset + perPage, merged. Written out, not built by
   * knex (docs/decisions/performance.md, Performance: "The inquiry list's default period …
   * compiling them with knex was about 0.2 ms of a page's CPU").
   */
  async page(visible: Visibility, filters: ListFilters): Promise<InquiryFields[]> {
    const offset = (filters.page - 1) * filters.perPage
    const params = new SqlParams()
    const agency = params.add(visible.agencyId)
    const where = listConditions(params, filters)
    const range = (audienceAppId: number, limit: number) =>
      `select * from inquiries where agency_id = ${agency} and audience_app_id = ${params.add(audienceAppId)}${where}
       ${NEWEST_FIRST} limit ${params.add(limit)}`
    const [own, other] = visible.audiences
    const rows =
      other === undefined
        ? range(own, filters.perPage)
        : `select * from ((${range(own, offset + filters.perPage)}) union all (${range(other, offset + filters.perPage)})) as inquiries
           ${NEWEST_FIRST} limit ${params.add(filters.perPage)}`
    const page = await poolQuery(`${rows} offset ${params.add(offset)}`, params.values)
    return page.map(toFields)
  }

  /**
   * The period's total from the hourly counters (inquiry_hour_counts, kept by
   * a trigger): whole UTC hours [firstHour, lastHour) summed, the partial
   * hours at either end counted row by row (docs/decisions/leads.md, Leads: "`Total`:
   * hourly counters in stripes").
   */
  async countByHour(visible: Visibility, from: Date, firstHour: Date, lastHour: Date, to: Date) {
    const [row] = await poolQuery<{ total: string }>(
      `select coalesce((select sum(total) from inquiry_hour_counts
          where agency_id = $1 and audience_app_id = any($2::integer[]) and hour >= $3 and hour < $4), 0)
        + (select count(*) from inquiries
          where agency_id = $1 and audience_app_id = any($2::integer[])
            and ((received_at >= $5 and received_at < $3) or (received_at >= $4 and received_at < $6))) as total`,
      [visible.agencyId, visible.audiences, firstHour, lastHour, from, to]
    )
    return Number(row.total)
  }

  /** The period's total row by row (a narrowed list, or a period shorter than an hour). */
  async count(visible: Visibility, filters: ListFilters) {
    const params = new SqlParams()
    const where = `agency_id = ${params.add(visible.agencyId)} and audience_app_id = any(${params.add(visible.audiences)}::integer[])`
    const [row] = await poolQuery<{ total: string }>(
      `select count(*) as total from inquiries where ${where}${listConditions(params, filters)}`,
      params.values
    )
    return Number(row.total)
  }

  /** Agencies where the operator is responsible for catalogue inquiries. */
  async catalogueAgenciesOf(operatorEmail: string): Promise<number[]> {
    const rows = await poolQuery<{ agency_id: number }>(
      'select distinct agency_id from inquiries where operator_email = $1 and app_id is null',
      [operatorEmail.toLowerCase()]
    )
    return rows.map((row) => row.agency_id)
  }

  /**
   * One page of an operator's inquiries across agencies, and its total: the
   * app's own, plus catalogue inquiries of the agencies in `openTo`.
   */
  async operatorPage(
    appId: number,
    openTo: number[],
    filters: ListFilters & { operatorEmail: string }
  ): Promise<{ inquiries: InquiryFields[]; total: number }> {
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
    return { inquiries: rows.map(toFields), total: Number(count.total) }
  }

  /** Desasociar: the operator's inquiries of the agency move to another. */
  async moveOperator(
    agencyId: number,
    fromOperatorId: number,
    to: { id: number; email?: string },
    tx?: Tx
  ) {
    await (tx ?? db)
      .from('inquiries')
      .where('agency_id', agencyId)
      .where('operator_id', fromOperatorId)
      .update({ operator_id: to.id, ...(to.email ? { operator_email: to.email } : {}) })
  }

  /**
   * The candidate inquiries of a buyer (of one agency, or of all with null),
   * found by index only (docs/decisions/buyers.md, "Finding them by index"), oldest
   * first, with the identifiers each holds. In a transaction the rows are
   * locked `for share`: a suppression committing meanwhile is waited for and
   * its rows then no longer match. Written out: the expressions must read
   * exactly as the indexes do.
   */
  async findBuyer(keys: BuyerKeys, agencyId: number | null, tx?: Tx): Promise<BuyerCandidate[]> {
    const query = findBuyerQuery(keys, agencyId, { lock: tx !== undefined })
    if (!query) return []
    const rows = await poolQuery<Record<string, any>>(query.sql, query.values, { client: tx })
    return rows.map((row) => ({
      ...buyerInquiry(row),
      email: row.email,
      phone: row.phone,
      documentId: row.document_id,
    }))
  }

  /**
   * Suppresses the buyer's fields of the inquiries (docs/design.md §16): the
   * row, its vehicle, origin, listing, interest and counts stay. Answers the
   * inquiries changed (an inquiry already erased is left as it is).
   */
  async eraseBuyer(ids: number[], tx?: Tx): Promise<BuyerInquiry[]> {
    if (!ids.length) return []
    const rows = await poolQuery<Record<string, any>>(
      `update inquiries
          set first_name = null, last_name = null, email = null, phone = null, document_id = null,
              city = null, comment = null, operation_info = null, buyer_erased_at = now()
        where id = any($1::bigint[]) and buyer_erased_at is null
        returning id, sid, agency_id, app_id, source_app_id, kind`,
      [ids],
      { client: tx }
    )
    return rows.map(buyerInquiry)
  }

  /** The full rows of some inquiries (an access export), oldest first. */
  async many(ids: number[], tx?: Tx) {
    if (!ids.length) return []
    return Inquiry.query({ client: tx }).whereIn('id', ids).orderBy('received_at').orderBy('id')
  }

  /**
   * Up to `limit` inquiries not yet erased and received before their agency's
   * cutoff (`cutoffs`, else `defaultCutoff`), oldest first: one retention
   * batch. Index `inquiries_unerased` (received_at where not erased), cut at
   * the latest cutoff of all.
   */
  async expiredBuyers(
    defaultCutoff: Date,
    cutoffs: { agencyId: number; cutoff: Date }[],
    limit: number,
    tx?: Tx
  ): Promise<number[]> {
    const latest = cutoffs.reduce((max, { cutoff }) => (cutoff > max ? cutoff : max), defaultCutoff)
    const rows = await poolQuery<{ id: string }>(
      `select i.id from inquiries i
         left join unnest($1::integer[], $2::timestamptz[]) as own(agency_id, cutoff)
           on own.agency_id = i.agency_id
        where i.buyer_erased_at is null and i.received_at < $3
          and i.received_at < coalesce(own.cutoff, $4)
        order by i.received_at limit $5`,
      [
        cutoffs.map((entry) => entry.agencyId),
        cutoffs.map((entry) => entry.cutoff),
        latest,
        defaultCutoff,
        limit,
      ],
      { client: tx }
    )
    return rows.map((row) => Number(row.id))
  }

  /** Clears `resend_open` of the inquiries whose window has run out (index `inquiries_resend_open`). */
  async closeExpiredResendWindows() {
    await db
      .from('inquiries')
      .where('resend_open', true)
      .where('resend_closes_at', '<=', db.raw('now()'))
      .update({ resend_open: false })
  }

  /** Inquiries received in the last hour and the last 5 minutes, by kind (metrics). */
  async receivedLately(): Promise<{ kind: string; hour: number; recent: number }[]> {
    const result = await db.rawQuery(`
        select kind,
               count(*) as hour,
               count(*) filter (where received_at > now() - interval '5 minutes') as recent
          from inquiries where received_at > now() - interval '1 hour'
         group by kind`)
    return result.rows.map((row: any) => ({
      kind: row.kind,
      hour: Number(row.hour),
      recent: Number(row.recent),
    }))
  }
}
