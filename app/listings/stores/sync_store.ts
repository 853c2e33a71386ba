/*
 * Stock syncs and their rows (docs/design.md §15; migration 0301). Written-out
 * SQL where one statement does what the query builder would need several
 * round trips for: results of a batch recorded with the sync's counters in one
 * statement (a 1 000-row sync records its unchanged rows in 10 statements,
 * not 2 000), the agency's run claimed under its lock.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'
import type { Fail } from '#core/result'
import type { UnknownMember } from '#core/services/body_members'
import type { ListingFailure } from '#listings/services/listing_failures'

/** Another advisory-lock key of this module's namespace (LOCK_NAMESPACE + 1): one running sync per agency. */
const SYNC_LOCK = 301

export type SyncMode = 'full' | 'partial'
export type SyncState = 'pending' | 'running' | 'done' | 'failed'
export type SyncOutcome = 'created' | 'updated' | 'unchanged' | 'archived' | 'rejected'
/** A row's `Errors` as rows received before migration 0304 stored them: already worded. */
export type RowErrors = Record<string, string[]>

/** Why a row is refused before any work (StartSync). */
export type RowRefusal = 'repeated_external_id' | 'archive_also_sent' | 'row_too_large'

/**
 * One failure of the create body's validator: its field path, rule and
 * message. The message is the validator's own (the app's Vine messages
 * provider words it while validating; docs/decisions/listings.md).
 */
export type BodyIssue = { field: string; rule: string; message: string }

/**
 * Why a row was rejected, in domain words (migration 0304): the listing
 * action's failure, the body's validation failures, its unknown members (as
 * paths), no listing of that ExternalId to archive, a refusal on arrival, or
 * a failure no rule names. http/problems words it when the row is read.
 */
export type RowRejection =
  | ListingFailure
  | Fail<'invalid_body', BodyIssue[]>
  | Fail<'unknown_members', UnknownMember[]>
  | Fail<'no_listing'>
  | Fail<RowRefusal>
  | Fail<'unexpected'>

/** Why a sync ended `failed` (stored as a reason and its figures; the wire words it). */
export type SyncFailure =
  /** A full sync whose archive list, built when it started, breaks the guard without ConfirmarBajas. */
  | { reason: 'too_many_archives'; archives: number; live: number }
  /** The app was disabled, or has no live token, while its sync waited or ran. */
  | { reason: 'app_unavailable'; standing: 'disabled' | 'no_live_token' | 'gone' }
  /** Started again and again at the same row without getting further (a worker dying on it). */
  | { reason: 'kept_failing'; starts: number }

export type SyncData = {
  id: number
  appId: number
  agencyId: number
  adminEmail: string
  mode: SyncMode
  simulated: boolean
  state: SyncState
  total: number
  processed: number
  counts: Record<SyncOutcome, number>
  receivedAt: Date
  finishedAt: Date | null
  /** The worker holding the sync's lease (set by `claim`). */
  holder?: string
  /** The caller sent ConfirmarBajas. */
  confirmArchives: boolean
  /** A simulation that a real run would need ConfirmarBajas for. */
  confirmationRequired: boolean
  /** Why it failed, when it did for a reason of its own. */
  failure: SyncFailure | null
  /** Starts by a worker at the sync's current progress, this one included (set by `claim`). */
  starts?: number
}

export type NewSync = Pick<
  SyncData,
  | 'appId'
  | 'agencyId'
  | 'adminEmail'
  | 'mode'
  | 'simulated'
  | 'confirmArchives'
  | 'confirmationRequired'
> & {
  /** A full sync lists the listings it archives when it starts (`listArchives`). */
  archivesPending: boolean
}

/** A row as received: `payload` is its JSON text; rows refused up front come with their result. */
export type NewSyncRow = {
  position: number
  kind: 'upsert' | 'archive'
  externalId: string | null
  payload: string | null
  outcome?: SyncOutcome
  rejection?: RowRejection
}

export type PendingRow = {
  position: number
  kind: 'upsert' | 'archive'
  externalId: string | null
  payload: unknown
  /** Its payload is beyond MAX_ROW_BYTES: not read (`payload` null). */
  oversize?: boolean
}

/** `notices`: what the row's write did not do as asked, in domain words (migration 0302). */
export type RowResult = {
  position: number
  outcome: SyncOutcome
  rejection?: RowRejection | null
  notices?: readonly object[] | null
}

export type ResultRow = {
  position: number
  externalId: string | null
  outcome: SyncOutcome
  /** Why it was rejected (rows recorded since migration 0304). */
  rejection: RowRejection | null
  /** The worded `Errors` of a row recorded before migration 0304 (`rejection` null), shown as stored. */
  errors: RowErrors | null
  notices: object[] | null
}

const SYNC_COLUMNS = `id, app_id, agency_id, admin_email, mode, simulated, state, total, processed,
  created, updated, unchanged, archived, rejected, received_at, finished_at,
  confirm_archives, confirmation_required, failure, failure_details`

function syncOf(row: any): SyncData {
  return {
    id: Number(row.id),
    appId: row.app_id,
    agencyId: row.agency_id,
    adminEmail: row.admin_email,
    mode: row.mode,
    simulated: row.simulated,
    state: row.state,
    total: row.total,
    processed: row.processed,
    counts: {
      created: row.created,
      updated: row.updated,
      unchanged: row.unchanged,
      archived: row.archived,
      rejected: row.rejected,
    },
    receivedAt: row.received_at,
    finishedAt: row.finished_at,
    ...(row.lease_holder ? { holder: row.lease_holder } : {}),
    confirmArchives: row.confirm_archives,
    confirmationRequired: row.confirmation_required,
    failure: row.failure ? ({ reason: row.failure, ...row.failure_details } as SyncFailure) : null,
    ...(row.starts !== undefined ? { starts: row.starts } : {}),
  }
}

/** Rows per INSERT: 500 rows of at most 4 KiB keep one statement's parameters near 2 MiB. */
const INSERT_CHUNK = 500

/**
 * A stored row's payload beyond this many bytes (as JSON text) is not read by
 * the worker: no valid row comes near it (50 photo URLs of 2 000 characters
 * are 100 KB); StartSync refuses such rows on arrival, this covers rows
 * stored before it did.
 */
export const MAX_ROW_BYTES = 256 * 1024
/**
 * A batch (`pending`) ends at the row that takes its payloads past this many
 * bytes (at least one row): a worker holds at most about 1.25 MiB of rows'
 * JSON at a time, whatever they are made of (docs/design.md §25).
 */
export const BATCH_BYTES = 1024 * 1024

export default class SyncStore {
  /**
   * Under the agency's lock, held until `tx` ends (claim takes it too): syncs of one agency get
   * their Ids and `received_at` in the order they are stored, so a claim never sees a newer sync
   * while an older one is still being stored, and never runs the newer one first.
   */
  async create(sync: NewSync, total: number, tx: Tx): Promise<SyncData> {
    await tx.rawQuery('select pg_advisory_xact_lock(?, ?)', [SYNC_LOCK, sync.agencyId])
    const { rows } = await tx.rawQuery(
      `insert into listing_syncs (app_id, agency_id, admin_email, mode, simulated, total, archives_pending,
         confirm_archives, confirmation_required, received_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp()) returning ${SYNC_COLUMNS}`,
      [
        sync.appId,
        sync.agencyId,
        sync.adminEmail,
        sync.mode,
        sync.simulated,
        total,
        sync.archivesPending,
        sync.confirmArchives,
        sync.confirmationRequired,
      ]
    )
    return syncOf(rows[0])
  }

  /** The rows, in chunks; rows that come with their result count as processed. */
  async insertRows(syncId: number, rows: NewSyncRow[], tx: Tx) {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      const chunk = rows.slice(start, start + INSERT_CHUNK)
      await tx.rawQuery(
        `insert into listing_sync_rows (sync_id, position, kind, external_id, payload, outcome, rejection)
         select ?, v.position, v.kind, v.external_id, v.payload::jsonb, v.outcome, v.rejection::jsonb
         from unnest(?::int[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
           as v(position, kind, external_id, payload, outcome, rejection)`,
        [
          syncId,
          chunk.map((row) => row.position),
          chunk.map((row) => row.kind),
          chunk.map((row) => row.externalId),
          chunk.map((row) => row.payload),
          chunk.map((row) => row.outcome ?? null),
          chunk.map((row) => (row.rejection ? JSON.stringify(row.rejection) : null)),
        ] as any[]
      )
    }
    const refused = rows.filter((row) => row.outcome === 'rejected').length
    if (refused > 0) {
      await tx.rawQuery(
        'update listing_syncs set processed = processed + ?, rejected = rejected + ? where id = ?',
        [refused, refused, syncId]
      )
    }
  }

  /** The app's sync of the agency, or null (another app's or agency's looks missing). */
  async find(appId: number, agencyId: number, id: number): Promise<SyncData | null> {
    const { rows } = await db.rawQuery(
      `select ${SYNC_COLUMNS} from listing_syncs where id = ? and app_id = ? and agency_id = ?`,
      [id, appId, agencyId]
    )
    return rows.length ? syncOf(rows[0]) : null
  }

  async findById(id: number, tx?: Tx): Promise<SyncData | null> {
    const { rows } = await (tx ?? db).rawQuery(
      `select ${SYNC_COLUMNS} from listing_syncs where id = ?`,
      [id]
    )
    return rows.length ? syncOf(rows[0]) : null
  }

  /** The app's syncs of the agency received in the last `days` days, newest first. */
  async recent(appId: number, agencyId: number, days: number): Promise<SyncData[]> {
    const { rows } = await db.rawQuery(
      `select ${SYNC_COLUMNS} from listing_syncs
       where agency_id = ? and app_id = ? and received_at > now() - make_interval(days => ?)
       order by received_at desc, id desc`,
      [agencyId, appId, days]
    )
    return rows.map(syncOf)
  }

  /** Results in row order, one page; `outcome` filters. */
  async results(
    syncId: number,
    filter: { outcome?: SyncOutcome; page: number; perPage: number }
  ): Promise<{ rows: ResultRow[]; total: number }> {
    const where = filter.outcome ? 'and outcome = ?' : 'and outcome is not null'
    const values = filter.outcome ? [syncId, filter.outcome] : [syncId]
    const { rows } = await db.rawQuery(
      `select position, external_id, outcome, rejection, errors, notices, count(*) over () as total
       from listing_sync_rows where sync_id = ? ${where}
       order by position limit ? offset ?`,
      [...values, filter.perPage, (filter.page - 1) * filter.perPage]
    )
    let total = rows.length ? Number(rows[0].total) : 0
    if (!rows.length && filter.page > 1) {
      const counted = await db.rawQuery(
        `select count(*)::int as total from listing_sync_rows where sync_id = ? ${where}`,
        values
      )
      total = counted.rows[0].total
    }
    return {
      rows: rows.map((row: any) => ({
        position: row.position,
        externalId: row.external_id,
        outcome: row.outcome,
        rejection: row.rejection,
        errors: row.errors,
        notices: row.notices,
      })),
      total,
    }
  }

  /**
   * For the archive guard: how many of the app's listings of the agency are
   * not archived (`live`), and how many of those no ExternalId of `keep`
   * (lower case) names (`absent`: what a full sync would archive now).
   */
  async countAbsent(
    appId: number,
    agencyId: number,
    keep: string[]
  ): Promise<{ absent: number; live: number }> {
    const { rows } = await db.rawQuery(
      `select count(*) filter (where lower(external_id) <> all(?::text[]))::int as absent,
              count(*)::int as live
       from listings where app_id = ? and agency_id = ? and state <> 'archived'`,
      [keep, appId, agencyId]
    )
    return rows[0]
  }

  /**
   * A full sync's archives, listed once when it starts, in `tx`: the app's
   * listings of the agency that are not archived and that no row of the sync
   * names (any case), after the rows, in the order they were created. So a
   * sync queued behind another archives what that one created, as a full
   * inventory means. With them, in the same statement (one snapshot), how many
   * of the app's listings of the agency are live: the guard the caller applies
   * (it rolls `tx` back to list nothing). Null when they were listed already.
   */
  async listArchives(syncId: number, tx: Tx): Promise<{ archives: number; live: number } | null> {
    const { rows } = await tx.rawQuery(
      `update listing_syncs set archives_pending = false
       where id = ? and archives_pending returning app_id, agency_id, total`,
      [syncId]
    )
    if (!rows.length) return null
    const [{ app_id: appId, agency_id: agencyId, total }] = rows
    const listed = await tx.rawQuery(
      `with listed as (
         insert into listing_sync_rows (sync_id, position, kind, external_id)
         select ?, ? + row_number() over (order by l.id), 'archive', l.external_id
         from listings l
         where l.app_id = ? and l.agency_id = ? and l.state <> 'archived'
           and not exists (
             select 1 from listing_sync_rows r
             where r.sync_id = ? and r.kind = 'upsert' and lower(r.external_id) = lower(l.external_id))
         returning 1),
       counted as (
         update listing_syncs set total = total + (select count(*) from listed) where id = ?)
       select (select count(*) from listed)::int as archives,
              (select count(*) from listings
               where app_id = ? and agency_id = ? and state <> 'archived')::int as live`,
      [syncId, total, appId, agencyId, syncId, syncId, appId, agencyId]
    )
    return listed.rows[0]
  }

  /** A simulation says whether a real run would need ConfirmarBajas (docs/design.md §24). */
  async requireConfirmation(syncId: number, required: boolean, tx: Tx) {
    await tx.rawQuery('update listing_syncs set confirmation_required = ? where id = ?', [
      required,
      syncId,
    ])
  }

  /**
   * Takes the sync for this worker until `leaseSeconds` from now: when it is
   * unfinished, not held by a live worker, and no other sync of its agency is
   * older and unfinished or running (syncs of one agency run one at a time, in
   * order of arrival). Under the agency's lock, so two claims cannot both win.
   * Counts the start (`starts`): from 1 again when the sync got further since
   * the last one, else one more — a worker killed on the same row each time
   * (no catch runs) is seen here.
   */
  async claim(syncId: number, leaseSeconds: number): Promise<SyncData | null> {
    return db.transaction(async (tx) => {
      const agency = await tx.rawQuery('select agency_id from listing_syncs where id = ?', [syncId])
      if (!agency.rows.length) return null
      await tx.rawQuery('select pg_advisory_xact_lock(?, ?)', [SYNC_LOCK, agency.rows[0].agency_id])
      const { rows } = await tx.rawQuery(
        `update listing_syncs s set state = 'running', lease_until = now() + make_interval(secs => ?),
           lease_holder = gen_random_uuid(),
           starts = case when s.progress_mark = s.processed then s.starts + 1 else 1 end,
           progress_mark = s.processed
         where s.id = ? and (s.state = 'pending' or (s.state = 'running' and s.lease_until < now()))
           and not exists (
             select 1 from listing_syncs o
             where o.agency_id = s.agency_id and o.id <> s.id and (
               (o.id < s.id and o.state in ('pending', 'running'))
               or (o.state = 'running' and o.lease_until >= now())))
         returning ${SYNC_COLUMNS}, lease_holder, starts`,
        [leaseSeconds, syncId]
      )
      return rows.length ? syncOf(rows[0]) : null
    })
  }

  /** Keeps the lease; false when `holder` lost it (it lapsed and another worker took the sync). */
  async renew(syncId: number, holder: string, leaseSeconds: number): Promise<boolean> {
    const { rows } = await db.rawQuery(
      `update listing_syncs set lease_until = now() + make_interval(secs => ?)
       where id = ? and state = 'running' and lease_holder = ? returning id`,
      [leaseSeconds, syncId, holder]
    )
    return rows.length > 0
  }

  /**
   * Rows without a result, archives first (they free the places new rows take),
   * then in order: up to `limit`, ending at the row that takes their payloads
   * past BATCH_BYTES; a payload beyond MAX_ROW_BYTES is left unread (`oversize`).
   */
  async pending(syncId: number, limit: number, offset = 0): Promise<PendingRow[]> {
    // Each payload is turned into text once (`offset 0` keeps that subquery whole), measured,
    // and parsed here as the driver parses jsonb.
    const { rows } = await db.rawQuery(
      `select position, kind, external_id, bytes > ? as oversize,
              case when bytes > ? then null else text end as payload
       from (
         select measured.*, sum(bytes) filter (where bytes <= ?)
                  over (order by upsert, position) as through
         from (
           select texts.*, coalesce(octet_length(texts.text), 0) as bytes
           from (
             select position, kind, external_id, upsert, payload::text as text
             from (
               select position, kind, external_id, payload, kind = 'upsert' as upsert
               from listing_sync_rows where sync_id = ? and outcome is null
               order by kind = 'upsert', position limit ? offset ?) batch
             offset 0) texts) measured) counted
       where coalesce(through, 0) - case when bytes > ? then 0 else bytes end < ?
       order by upsert, position`,
      [
        MAX_ROW_BYTES,
        MAX_ROW_BYTES,
        MAX_ROW_BYTES,
        syncId,
        limit,
        offset,
        MAX_ROW_BYTES,
        BATCH_BYTES,
      ]
    )
    return rows.map((row: any) => ({
      position: row.position,
      kind: row.kind,
      externalId: row.external_id,
      payload: row.payload === null ? null : JSON.parse(row.payload),
      ...(row.oversize ? { oversize: true } : {}),
    }))
  }

  /**
   * Holds the rows in `tx` that still have no result; their positions. The
   * transaction then commits without waiting for its WAL flush: a crash can
   * lose only whole rows (writes with their results), which the resumed sync
   * does again — and a 1 000-row sync does not wait for each row's flush
   * (docs/performance.md, "stock sync").
   */
  async holdUnfinished(syncId: number, positions: number[], tx: Tx): Promise<number[]> {
    await tx.rawQuery('set local synchronous_commit = off')
    const { rows } = await tx.rawQuery(
      `select position from listing_sync_rows
       where sync_id = ? and position = any(?::int[]) and outcome is null
       order by position for update`,
      [syncId, positions]
    )
    return rows.map((row: { position: number }) => row.position)
  }

  /**
   * Records results (each only once: a row that has one keeps it), emptying
   * their payloads, and adds them to the sync's counters, in one statement.
   */
  async record(syncId: number, results: RowResult[], tx?: Tx) {
    if (!results.length) return
    await (tx ?? db).rawQuery(
      `with done as (
         update listing_sync_rows r set outcome = v.outcome, rejection = v.rejection::jsonb,
           notices = v.notices::jsonb, payload = null
         from unnest(?::int[], ?::text[], ?::text[], ?::text[]) as v(position, outcome, rejection, notices)
         where r.sync_id = ? and r.position = v.position and r.outcome is null
         returning r.outcome)
       update listing_syncs set
         processed = processed + (select count(*) from done),
         created = created + (select count(*) from done where outcome = 'created'),
         updated = updated + (select count(*) from done where outcome = 'updated'),
         unchanged = unchanged + (select count(*) from done where outcome = 'unchanged'),
         archived = archived + (select count(*) from done where outcome = 'archived'),
         rejected = rejected + (select count(*) from done where outcome = 'rejected')
       where id = ?`,
      [
        results.map((result) => result.position),
        results.map((result) => result.outcome),
        results.map((result) => (result.rejection ? JSON.stringify(result.rejection) : null)),
        results.map((result) => (result.notices?.length ? JSON.stringify(result.notices) : null)),
        syncId,
        syncId,
      ] as any[]
    )
  }

  /** Ends the sync (failed: why, if known); the finished row, or null when it was no longer running. */
  async finish(
    syncId: number,
    state: 'done' | 'failed',
    tx?: Tx,
    failure?: SyncFailure
  ): Promise<SyncData | null> {
    const { reason, ...details } = failure ?? { reason: null }
    const { rows } = await (tx ?? db).rawQuery(
      `update listing_syncs set state = ?, finished_at = now(), lease_until = null,
         failure = ?, failure_details = ?::jsonb
       where id = ? and state in ('pending', 'running') returning ${SYNC_COLUMNS}`,
      [state, reason, reason ? JSON.stringify(details) : null, syncId]
    )
    return rows.length ? syncOf(rows[0]) : null
  }

  /** The agency's oldest unfinished sync, the one to run next. */
  async next(agencyId: number): Promise<number | null> {
    const { rows } = await db.rawQuery(
      `select id from listing_syncs where agency_id = ? and state in ('pending', 'running')
       order by id limit 1`,
      [agencyId]
    )
    return rows.length ? Number(rows[0].id) : null
  }

  /** Deletes the agency's finished syncs received more than `days` days ago (rows go with them). */
  async prune(agencyId: number, days: number) {
    await db.rawQuery(
      `delete from listing_syncs where agency_id = ? and state in ('done', 'failed')
       and received_at < now() - make_interval(days => ?)`,
      [agencyId, days]
    )
  }
}
