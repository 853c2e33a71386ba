/*
 * The buyers' privacy tables (database/migrations/0502_buyers_privacy.ts):
 * agencies' retention settings, privacy requests with their exports, and the
 * audit. Plain CRUD and one paged list: the query builder (docs/architecture.md).
 */
import db from '@adonisjs/lucid/services/db'
import { DateTime } from 'luxon'
import type { Tx } from '#core/database/unit_of_work'
import type { Identifiers, RequestKind } from '#buyers/services/privacy/subject'

export type RequestState = 'pending' | 'done'

export type PrivacyRequestRow = {
  id: string
  agencyId: number
  appId: number
  kind: RequestKind
  state: RequestState
  receivedAt: DateTime
  dueAt: DateTime
  doneAt: DateTime | null
  matched: number | null
  identifiers: Identifiers | null
  masked: { email: string | null; phone: string | null; document: string | null }
  hasExport: boolean
  exportExpiresAt: DateTime | null
}

export type NewPrivacyRequest = {
  agencyId: number
  appId: number
  kind: RequestKind
  receivedAt: DateTime
  dueAt: DateTime
  identifiers: Identifiers
  masked: PrivacyRequestRow['masked']
}

export type AuditEntry = {
  source: 'request' | 'command' | 'retention'
  kind: RequestKind
  agencyId: number | null
  appId: number | null
  requestId: string | null
  subjectHmac: string | null
  matched: number
}

const time = (value: Date | string | null) =>
  value === null ? null : DateTime.fromJSDate(new Date(value))

const COLUMNS = [
  'id',
  'agency_id',
  'app_id',
  'kind',
  'state',
  'received_at',
  'due_at',
  'done_at',
  'matched',
  'identifiers',
  'masked_email',
  'masked_phone',
  'masked_document',
  'export_expires_at',
  db.raw('export is not null as has_export'),
]

function toRow(row: Record<string, any>): PrivacyRequestRow {
  return {
    id: row.id,
    agencyId: row.agency_id,
    appId: row.app_id,
    kind: row.kind,
    state: row.state,
    receivedAt: time(row.received_at)!,
    dueAt: time(row.due_at)!,
    doneAt: time(row.done_at),
    matched: row.matched,
    identifiers: row.identifiers,
    masked: { email: row.masked_email, phone: row.masked_phone, document: row.masked_document },
    hasExport: row.has_export ?? (row.export !== null && row.export !== undefined),
    exportExpiresAt: time(row.export_expires_at),
  }
}

export default class PrivacyStore {
  /** The agency's own retention in days, or null (the default applies). */
  async retention(agencyId: number, tx?: Tx): Promise<number | null> {
    const row = await (tx ?? db)
      .from('privacy_settings')
      .where('agency_id', agencyId)
      .select('retention_days')
      .first()
    return row ? row.retention_days : null
  }

  async setRetention(agencyId: number, days: number, tx?: Tx) {
    await (tx ?? db)
      .table('privacy_settings')
      .insert({ agency_id: agencyId, retention_days: days, updated_at: new Date() })
      .onConflict('agency_id')
      .merge(['retention_days', 'updated_at'])
  }

  /** Every agency's own retention (the daily job). */
  async retentions(tx?: Tx): Promise<{ agencyId: number; days: number }[]> {
    const rows = await (tx ?? db).from('privacy_settings').select('agency_id', 'retention_days')
    return rows.map((row) => ({ agencyId: row.agency_id, days: row.retention_days }))
  }

  async insertRequest(request: NewPrivacyRequest, tx?: Tx): Promise<PrivacyRequestRow> {
    const [row] = await (tx ?? db)
      .table('privacy_requests')
      .insert({
        agency_id: request.agencyId,
        app_id: request.appId,
        kind: request.kind,
        state: 'pending',
        received_at: request.receivedAt.toJSDate(),
        due_at: request.dueAt.toJSDate(),
        identifiers: JSON.stringify(request.identifiers),
        masked_email: request.masked.email,
        masked_phone: request.masked.phone,
        masked_document: request.masked.document,
      })
      .returning('*')
    return toRow(row)
  }

  /** One request of the app at the agency (`forUpdate`: locked for the rest of `tx`). */
  async request(
    which: { id: string; agencyId?: number; appId?: number },
    tx?: Tx,
    options: { forUpdate?: boolean } = {}
  ): Promise<PrivacyRequestRow | null> {
    const query = (tx ?? db).from('privacy_requests').select(COLUMNS).where('id', which.id)
    if (which.agencyId !== undefined) query.where('agency_id', which.agencyId)
    if (which.appId !== undefined) query.where('app_id', which.appId)
    if (options.forUpdate) query.forUpdate()
    const row = await query.first()
    return row ? toRow(row) : null
  }

  /** A page of the agency's requests (every app's), newest first, and the total. */
  async page(agencyId: number, page: number, perPage: number) {
    const base = () => db.from('privacy_requests').where('agency_id', agencyId)
    const [rows, [count]] = await Promise.all([
      base()
        .select(COLUMNS)
        .orderBy('received_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage),
      base().count('* as total'),
    ])
    return { requests: rows.map(toRow), total: Number(count.total) }
  }

  /**
   * Done: the count, and (access) the export until `exportExpiresAt` with
   * what a suppression finds it by (the inquiries it holds, the identifiers'
   * HMACs); the identifiers go.
   */
  async finish(
    id: string,
    result: {
      matched: number
      export?: unknown
      exportExpiresAt?: DateTime
      exportInquiryIds?: number[]
      exportKeys?: string[]
    },
    tx?: Tx
  ) {
    await (tx ?? db)
      .from('privacy_requests')
      .where('id', id)
      .update({
        state: 'done',
        done_at: new Date(),
        matched: result.matched,
        identifiers: null,
        export: result.export === undefined ? null : JSON.stringify(result.export),
        export_expires_at: result.exportExpiresAt?.toJSDate() ?? null,
        export_inquiry_ids: result.export === undefined ? null : (result.exportInquiryIds ?? []),
        export_keys: result.export === undefined ? null : (result.exportKeys ?? []),
      })
  }

  /**
   * Purges the live exports holding one of the inquiries, or named by one of
   * the identifiers' HMACs at the agency (null: any agency) — a suppression
   * or retention of the same person; their rows stay: `datos` answers 410.
   * Indexes `privacy_requests_export_inquiries` and `…_export_keys`. How many.
   */
  async purgeExportsOf(
    of: { inquiryIds: number[]; keys: string[]; agencyId?: number | null },
    tx?: Tx
  ): Promise<number> {
    if (!of.inquiryIds.length && !of.keys.length) return 0
    const agency = of.agencyId ?? null
    const purged = await (tx ?? db).rawQuery(
      `update privacy_requests
          set export = null, export_inquiry_ids = null, export_keys = null
        where export is not null
          and (export_inquiry_ids && ?::bigint[]
               or (export_keys && ?::text[] and (?::integer is null or agency_id = ?::integer)))`,
      [of.inquiryIds, of.keys, agency, agency]
    )
    return purged.rowCount as number
  }

  /** The export of a request, or null (none, or purged). */
  async exportOf(id: string, tx?: Tx): Promise<unknown | null> {
    const row = await (tx ?? db)
      .from('privacy_requests')
      .where('id', id)
      .whereRaw('export_expires_at > now()')
      .select('export')
      .first()
    return row?.export ?? null
  }

  /** Drops exports past their expiry (the rows stay: their `datos` answer 410); how many. */
  async purgeExports(tx?: Tx): Promise<number> {
    const purged = await (tx ?? db)
      .from('privacy_requests')
      .whereNotNull('export')
      .where('export_expires_at', '<=', new Date())
      .update({ export: null, export_inquiry_ids: null, export_keys: null })
    return Number(purged[0] ?? purged ?? 0)
  }

  /** Milliseconds since `tx` began, by the server's clock (how long its row locks have been held at most). */
  async transactionMs(tx: Tx): Promise<number> {
    const result = await tx.rawQuery(
      'select extract(epoch from clock_timestamp() - now()) * 1000 as ms'
    )
    return Number(result.rows[0].ms)
  }

  /** The matched count of a request's audit row, once the request is done. */
  async auditMatched(requestId: string, matched: number, tx?: Tx) {
    await (tx ?? db)
      .from('privacy_audit')
      .where('request_id', requestId)
      .where('source', 'request')
      .update({ matched })
  }

  async audit(entry: AuditEntry, tx?: Tx) {
    await (tx ?? db).table('privacy_audit').insert({
      source: entry.source,
      kind: entry.kind,
      agency_id: entry.agencyId,
      app_id: entry.appId,
      request_id: entry.requestId,
      subject_hmac: entry.subjectHmac,
      matched: entry.matched,
    })
  }
}
