/*
 * The SQL of outbound deliveries (`deliveries`, `delivery_attempts`), for
 * `DeliveryService` (#core/outbound/deliveries). Style per statement, by the
 * rule of docs/architecture.md: Lucid models for plain CRUD, the query builder
 * for dynamic filters, written-out SQL only on the hot paths where the bench
 * showed it pays: the intake's delivery INSERT and a try's claim and outcome,
 * kept verbatim and as many per intake and per try as before (intake: 8
 * statements, docs/decisions/performance.md Performance; intake → webhook at 50 inquiries/s:
 * p50 22 ms, p99 86 ms, worker 8.0 CPU ms per inquiry, the README's capacity
 * table). Every method takes an optional transaction last; without it, the pool.
 */
import type { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'
import { poolQuery } from '#core/database/pool_query'
import Delivery, { type DeliveryStatus } from '#core/outbound/models/delivery'
import DeliveryAttempt from '#core/outbound/models/delivery_attempt'

/** A delivery as read: the model (typed columns, its `attempts` when preloaded). */
export type DeliveryRow = Delivery

/** The columns of a new delivery (pending, due now, no attempt yet). */
export type NewDeliveryRow = {
  id: string
  channel: string
  ownerType: string
  ownerId: string
  appId: number
  target: string
  payload: unknown
  queue: string
  messageId: string
}

/** One try as recorded. */
export type AttemptRow = {
  deliveryId: string
  number: number
  attemptedAt: DateTime
  statusCode: number | null
  durationMs: number
  error: string | null
}

/** A claimed delivery and the job that held its claim before (null: none, the try is not a take-over). */
export type ClaimedRow = { delivery: DeliveryRow; previousClaim: string | null }

/** Where a try leaves its delivery. */
export type Settlement = {
  status: DeliveryStatus
  lastError: string | null
  nextAttemptAt: Date | null
}

/** Which deliveries: one by id, or an owner's (optionally one channel, one app). */
export type DeliverySelector =
  string | { ownerType: string; ownerId: string | number; channel?: string; appId?: number }

/** Columns a service may change on a delivery it read. */
export type DeliveryChanges = Partial<
  Pick<
    Delivery,
    'status' | 'roundAttempts' | 'nextAttemptAt' | 'lastError' | 'claimJobId' | 'payload' | 'target'
  >
>

/** An open delivery that no job waits for or runs. */
export type OrphanRow = {
  id: string
  queue: string
  nextAttemptAt: Date | null
  claimJobId: string | null
}

/** Statuses a try, a cancel or the sweeper can still act on. */
export const OPEN_STATUSES: readonly DeliveryStatus[] = Object.freeze(['pending', 'failed'])

/** SQL: no job of the delivery's queue waits for or runs this delivery (`d`: the deliveries table's alias). */
const noLiveJob = (d: string) => `not exists (
  select 1 from pgboss.job j
   where j.name = ${d}.queue
     and j.data ->> 'deliveryId' = ${d}.id::text
     and j.state in ('created', 'retry', 'active'))`

/** A new delivery: pending, due now, no attempt yet. */
const INSERT_DELIVERY = `insert into deliveries (id, channel, owner_type, owner_id, app_id, target, payload,
    queue, message_id, status, attempt_count, round_attempts, next_attempt_at, created_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', 0, 0, now(), now())`

export default class DeliveryStore {
  /**
   * Hot (one per channel of every inquiry): a prepared INSERT, not a model
   * save — docs/decisions/performance.md, Performance ("Each delivery is written by a
   * prepared INSERT"; 8 statements per intake).
   */
  async insert(row: NewDeliveryRow, tx?: Tx): Promise<void> {
    await poolQuery(
      INSERT_DELIVERY,
      [
        row.id,
        row.channel,
        row.ownerType,
        row.ownerId,
        row.appId,
        row.target,
        JSON.stringify(row.payload),
        row.queue,
        row.messageId,
      ],
      { prepare: true, client: tx }
    )
  }

  /**
   * Hot (every try): one statement claims the delivery when it is open and
   * due, or when `jobId` holds the claim already, and pushes `next_attempt_at`
   * ahead by `claimSeconds` (docs/decisions/core.md, Jobs & outbound: Claims).
   * Written out: the worker's 8.0 CPU ms per inquiry (bench) includes it.
   */
  async claim(
    deliveryId: string,
    jobId: string,
    claimSeconds: number,
    tx?: Tx
  ): Promise<ClaimedRow | null> {
    const result = await (tx ?? db).rawQuery(
      `with previous as (
         select id, claim_job_id from deliveries where id = ? for update
       )
       update deliveries
          set attempt_count = attempt_count + 1,
              round_attempts = round_attempts + 1,
              next_attempt_at = now() + make_interval(secs => ?),
              claim_job_id = ?
         from previous
        where deliveries.id = previous.id
          and status in ('pending', 'failed')
          and (next_attempt_at is null
               or next_attempt_at <= now() + interval '1 second'
               or previous.claim_job_id = ?)
        returning deliveries.*, previous.claim_job_id as previous_claim`,
      [deliveryId, claimSeconds, jobId, jobId]
    )
    const row = result.rows[0]
    if (!row) return null
    const previousClaim: string | null = row.previous_claim
    delete row.previous_claim
    return { delivery: Delivery.$createFromAdapterResult(row)!, previousClaim }
  }

  /** Only after a take-over (rare, not hot): the try a dead worker left without an outcome, once; as before. */
  async recordInterrupted(
    deliveryId: string,
    number: number,
    error: string,
    tx?: Tx
  ): Promise<void> {
    await (tx ?? db).rawQuery(
      `insert into delivery_attempts (delivery_id, number, attempted_at, status_code, duration_ms, error)
       select ?, ?, now(), null, 0, ?
        where not exists (select 1 from delivery_attempts where delivery_id = ? and number = ?)`,
      [deliveryId, number, error, deliveryId, number]
    )
  }

  /** Every try: one row (a model create is one INSERT … RETURNING, as before). */
  async insertAttempt(row: AttemptRow, tx?: Tx): Promise<void> {
    await DeliveryAttempt.create(row, { client: tx })
  }

  /**
   * Hot (every try): the outcome, only while try `number` still holds the
   * claim (a take-over after a long outage records its own). False: someone
   * claimed it since. Written out, one statement, inside the worker's 8.0 CPU
   * ms per inquiry (bench).
   */
  async settle(
    deliveryId: string,
    number: number,
    settlement: Settlement,
    tx?: Tx
  ): Promise<boolean> {
    const updated = await (tx ?? db).rawQuery(
      `update deliveries
          set status = ?, last_error = ?, next_attempt_at = ?, claim_job_id = null,
              delivered_at = case when ? then now() else delivered_at end
        where id = ? and attempt_count = ?
        returning id`,
      [
        settlement.status,
        settlement.lastError as any,
        settlement.nextAttemptAt as any,
        settlement.status === 'delivered',
        deliveryId,
        number,
      ]
    )
    return updated.rows.length > 0
  }

  /** Runs `work` in a savepoint of `tx`: what it writes rolls back alone when it throws. */
  savepoint<T>(tx: Tx, work: (savepoint: Tx) => Promise<T>): Promise<T> {
    return tx.transaction(work)
  }

  /** The selected deliveries, locked for the rest of `tx`. */
  async lock(which: DeliverySelector, tx: Tx): Promise<DeliveryRow[]> {
    return selected(which, tx).forUpdate()
  }

  /** The newest of the selected deliveries, or null. */
  async latest(which: DeliverySelector, tx?: Tx): Promise<DeliveryRow | null> {
    return selected(which, tx).orderBy('created_at', 'desc').first()
  }

  /** Writes `changes` to the delivery (a model save). */
  async update(delivery: DeliveryRow, changes: DeliveryChanges, tx?: Tx): Promise<DeliveryRow> {
    if (tx) delivery.useTransaction(tx)
    await delivery.merge(changes).save()
    return delivery
  }

  /** Disables a delivery while its status is one of `from`; true when it did. */
  async disable(
    deliveryId: string,
    reason: string,
    from: readonly DeliveryStatus[],
    tx?: Tx
  ): Promise<boolean> {
    const updated = await Delivery.query({ client: tx })
      .where('id', deliveryId)
      .whereIn('status', [...from])
      .update({ status: 'disabled', next_attempt_at: null, last_error: reason })
    return Number(updated[0] ?? 0) > 0
  }

  /**
   * Buyers' personal data (docs/design.md §16, docs/privacy.md): empties the
   * payloads and attempt errors of the selected deliveries (by owners or by
   * message ids); open ones are disabled, for there is nothing left to send.
   * Returns what was emptied (id, app, channel).
   */
  async forget(
    which: { ownerType: string; ownerIds: string[] } | { messageIds: string[] },
    tx?: Tx
  ): Promise<{ id: string; appId: number; channel: string; ownerId: string }[]> {
    const [where, values] =
      'messageIds' in which
        ? ['message_id = any(?::text[])', [which.messageIds]]
        : ['owner_type = ? and owner_id = any(?::text[])', [which.ownerType, which.ownerIds]]
    const emptied = await (tx ?? db).rawQuery(
      `update deliveries
          set payload = '{}'::jsonb, last_error = null, claim_job_id = null,
              next_attempt_at = case when status in ('pending', 'failed') then null else next_attempt_at end,
              status = case when status in ('pending', 'failed') then 'disabled' else status end
        where ${where}
        returning id, app_id, channel, owner_id`,
      values as any[]
    )
    const rows = emptied.rows as { id: string; app_id: number; channel: string; owner_id: string }[]
    if (rows.length) {
      await (tx ?? db).rawQuery(
        'update delivery_attempts set error = null where delivery_id = any(?::uuid[]) and error is not null',
        [rows.map((row) => row.id)]
      )
    }
    return rows.map((row) => ({
      id: row.id,
      appId: row.app_id,
      channel: row.channel,
      ownerId: row.owner_id,
    }))
  }

  /**
   * Empties the payloads of settled deliveries (delivered, dead, disabled) of
   * `ownerType` created before `before`, at most `limit`; how many.
   */
  async emptySettled(ownerType: string, before: Date, limit: number, tx?: Tx): Promise<number> {
    const emptied = await (tx ?? db).rawQuery(
      `update deliveries set payload = '{}'::jsonb
        where id in (
          select id from deliveries
           where payload <> '{}'::jsonb and created_at < ? and owner_type = ?
             and status in ('delivered', 'dead', 'disabled')
           order by created_at limit ?
           for update skip locked)`,
      [before, ownerType, limit]
    )
    return emptied.rowCount as number
  }

  find(deliveryId: string, tx?: Tx): Promise<DeliveryRow | null> {
    return Delivery.find(deliveryId, { client: tx })
  }

  /** An owner's deliveries (optionally one app's), oldest first, each with its attempts in order. */
  ofOwner(ownerType: string, ownerId: string | number, filter: { appId?: number } = {}) {
    const query = Delivery.query()
      .where('owner_type', ownerType)
      .where('owner_id', String(ownerId))
      .preload('attempts', (attempts) => attempts.orderBy('number', 'asc'))
      .orderBy('created_at', 'asc')
    if (filter.appId !== undefined) query.where('app_id', filter.appId)
    return query
  }

  /** Every delivery (a query to narrow further). */
  all() {
    return Delivery.query()
  }

  /** Open deliveries with no live job, or overdue by more than a minute. */
  stuck() {
    return Delivery.query()
      .whereIn('status', [...OPEN_STATUSES])
      .where((query) =>
        query
          .whereRaw(noLiveJob('deliveries'))
          .orWhereRaw("next_attempt_at < now() - interval '1 minute'")
      )
  }

  /** The ids of stuck deliveries (at most `limit`). */
  async stuckIds(limit: number): Promise<string[]> {
    const rows = await this.stuck().select('id').limit(limit)
    return rows.map((row) => row.id)
  }

  /** The newest deliveries, at most `limit`; with `anyOf`, only those in one of its statuses or ids. */
  newest(
    limit: number,
    anyOf?: { statuses?: readonly DeliveryStatus[]; ids?: readonly string[] }
  ): Promise<DeliveryRow[]> {
    const query = Delivery.query().orderBy('created_at', 'desc').limit(limit)
    if (anyOf) {
      query.where((either) => {
        if (anyOf.statuses) either.orWhereIn('status', [...anyOf.statuses])
        if (anyOf.ids) either.orWhereIn('id', [...anyOf.ids])
      })
    }
    return query.exec()
  }

  /** Up to `limit` open deliveries without a live job, locked (others' locked rows skipped). */
  async orphans(limit: number, tx?: Tx): Promise<OrphanRow[]> {
    const rows: Array<{
      id: string
      queue: string
      next_attempt_at: Date | null
      claim_job_id: string | null
    }> = await (tx ?? db)
      .from('deliveries as d')
      .select('d.id', 'd.queue', 'd.next_attempt_at', 'd.claim_job_id')
      .whereIn('d.status', [...OPEN_STATUSES])
      .whereRaw(noLiveJob('d'))
      .orderByRaw('d.next_attempt_at nulls first')
      .limit(limit)
      .forUpdate('d')
      .skipLocked()
    return rows.map((row) => ({
      id: row.id,
      queue: row.queue,
      nextAttemptAt: row.next_attempt_at,
      claimJobId: row.claim_job_id,
    }))
  }

  /** Due now. */
  async makeDue(deliveryId: string, tx?: Tx): Promise<void> {
    await (tx ?? db)
      .from('deliveries')
      .where('id', deliveryId)
      .update({ next_attempt_at: new Date() })
  }
}

/** The deliveries `which` names (a query to finish). */
function selected(which: DeliverySelector, tx?: Tx) {
  const query = Delivery.query({ client: tx })
  if (typeof which === 'string') return query.where('id', which)
  query.where('owner_type', which.ownerType).where('owner_id', String(which.ownerId))
  if (which.channel) query.where('channel', which.channel)
  if (which.appId !== undefined) query.where('app_id', which.appId)
  return query
}
