/*
 * Outbound deliveries: one row per message (webhook, hook, mail), one row per
 * attempt, and the retry schedule of docs/design.md §8.
 *
 * How a module uses it
 * --------------------
 * 1. Declare the queue in the module's `jobs.ts` with the delivery options:
 *
 *      { name: 'leads.webhook', queue: deliveryQueue, handler: () => import('./jobs/webhook_job.js') }
 *
 * 2. Create the delivery inside the transaction of the write that causes it
 *    (the row and its first job commit or roll back together):
 *
 *      await deliveries.create({ channel: 'webhook', ownerType: 'inquiry', ownerId: inquiry.id,
 *        appId, target: callbackUrl, payload, queue: 'leads.webhook' }, trx)
 *
 * 3. The queue handler receives `{ deliveryId }` and hands one try to `attempt`
 *    (with its job, so a crashed try's job run again takes its claim over):
 *
 *      const result = await deliveries.attempt(data.deliveryId, async (delivery) => {
 *        const body = JSON.stringify(delivery.payload)
 *        const response = await outbound.request(delivery.target, { method: 'POST', body, headers: {...} })
 *        return { status: response.status, headers: response.headers }
 *      }, job)
 *      if (result === 'gone') { ...deactivate the channel (the receiver answered 410)... }
 *
 *    `send` resolves the receiver's status (non-HTTP channels such as mail
 *    resolve `{ status: 200 }` on success) or throws; `attempt` records the try,
 *    marks 2xx delivered, 410 disabled (`'gone'`), and schedules the next try
 *    for anything else (honouring `Retry-After`) until the schedule runs out
 *    (`'dead'`, still resendable). A target that can never work (a private
 *    address, a bad URL) is dead at once. A delivered, dead, disabled or
 *    not-yet-due delivery is skipped, so duplicate jobs are harmless. Mails set
 *    `Message-ID: mailMessageId(delivery)`, the same on every try.
 *
 * 4. `resend(idOrOwner, trx, { payload?, target? })` queues it again with the same
 *    message id (`webhook-id`); `list(ownerType, ownerId)` returns deliveries with
 *    their attempts for logs such as `/v3/consultas/{adminmail}/{sid}/entregas`.
 *
 * Crash recovery: delivery queues heartbeat (a killed worker's job is failed
 * and run again within about 20 s, same job id, which may take over its own
 * claim), and the `deliveries.sweep` cron re-queues any open delivery that has
 * no live job (retries spent, job lost). An interrupted try is recorded as such
 * when the delivery is claimed again.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import logger from '@adonisjs/core/services/logger'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import runner from '#core/jobs/main'
import { settings } from '#core/settings'
import { poolQuery } from '#core/database/pool_query'
import { contributions } from '#core/modules'
import type { JobDefinition } from '#core/jobs/types'
import Delivery from './models/delivery.js'
import DeliveryAttempt from './models/delivery_attempt.js'
import { newMessageId } from './signer.js'
import { OutboundError } from './http_client.js'

export { default as Delivery } from './models/delivery.js'
export { default as DeliveryAttempt } from './models/delivery_attempt.js'
export type { DeliveryStatus } from './models/delivery.js'

/** Job data of every delivery queue. */
export type DeliveryJob = { deliveryId: string }

export type NewDelivery = {
  channel: string
  ownerType: string
  ownerId: string | number
  appId: number
  target: string
  payload: unknown
  /** The queue whose handler calls `attempt` for this delivery. */
  queue: string
  /** Defaults to a new `msg_…` id. */
  messageId?: string
}

export type SendOutcome = {
  status: number
  headers?: Record<string, string | string[] | undefined>
}

export type Sender = (delivery: Delivery, attempt: { number: number }) => Promise<SendOutcome>

export type AttemptResult = 'delivered' | 'retry' | 'dead' | 'gone' | 'skipped'

export type ResendOptions = { payload?: unknown; target?: string }

/**
 * A module's reaction to a delivery that just went dead, run in the
 * transaction that records it (an outbox write commits with it). Modules
 * register it in start/modules.ts (`deliveryDead`); core imports no module.
 */
export type DeadDeliveryHook = (delivery: Delivery, trx: TransactionClientContract) => Promise<void>

/**
 * Queue options for delivery queues: pg-boss does not retry a try itself (the
 * service schedules retries), except when a handler throws before recording or
 * its worker dies — a missed heartbeat (10 s, the pg-boss minimum) fails the
 * job, and it runs again 2–4 s later (backing off through a long outage), under
 * the same job id, which takes over its own claim.
 */
export const deliveryQueue: NonNullable<JobDefinition['queue']> = {
  retryLimit: 6,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 120,
  heartbeatSeconds: 10,
  expireInSeconds: 120,
}

/**
 * Work options for delivery queues. NOTIFY wakes a worker when a job is sent,
 * which is too early for a retry sent with `startAfter`; the backstop poll
 * (`notifyPollingIntervalSeconds`, pg-boss default 30 s) is what picks it up
 * when due, so it is kept at a second here.
 */
export const deliveryWork = {
  pollingIntervalSeconds: 1,
  notifyPollingIntervalSeconds: 1,
  localConcurrency: 2,
} satisfies NonNullable<JobDefinition['work']>

/** How long a claimed try keeps other jobs off (longer than any outbound timeout). */
const CLAIM_SECONDS = 120

/** How long the outcome of a try is retried into the database (an outage must not lose a sent message). */
const RECORD_PATIENCE_MS = 60_000

/** Errors that no retry can fix: the delivery is dead at once. */
const PERMANENT: ReadonlySet<string> = new Set(['private_address', 'bad_url', 'bad_scheme'])

const OPEN = ['pending', 'failed']

/** SQL: no job of the delivery's queue waits for or runs this delivery (`d`: the deliveries table's alias). */
const noLiveJob = (d: string) => `not exists (
  select 1 from pgboss.job j
   where j.name = ${d}.queue
     and j.data ->> 'deliveryId' = ${d}.id::text
     and j.state in ('created', 'retry', 'active'))`

/** The job a try runs in (the runner's JobContext fits). */
export type AttemptJob = { id: string }

/**
 * The `Message-ID` of a delivery's mails: derived from the delivery id and the
 * service's public host, identical on every try and resend, so a receiver
 * recognises a mail sent again after a crash as the same message.
 */
export function mailMessageId(delivery: Pick<Delivery, 'id'>): string {
  let host = 'localhost'
  try {
    host = new URL(settings.publicUrl).hostname.replace(/^\[|\]$/g, '') || host
  } catch {}
  return `<delivery-${delivery.id}@${host}>`
}

/** A new delivery: pending, due now, no attempt yet. */
const INSERT_DELIVERY = `insert into deliveries (id, channel, owner_type, owner_id, app_id, target, payload,
    queue, message_id, status, attempt_count, round_attempts, next_attempt_at, created_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending', 0, 0, now(), now())`

export class DeliveryService {
  /**
   * Inserts the delivery and sends its first job, both in `trx`. A plain
   * prepared INSERT: an inquiry writes one per channel, and saving a model
   * cost more than the statement.
   */
  async create(
    input: NewDelivery,
    trx: TransactionClientContract
  ): Promise<NewDelivery & { id: string; ownerId: string; messageId: string }> {
    const id = randomUUID()
    const messageId = input.messageId ?? newMessageId()
    await poolQuery(
      INSERT_DELIVERY,
      [
        id,
        input.channel,
        input.ownerType,
        String(input.ownerId),
        input.appId,
        input.target,
        JSON.stringify(input.payload),
        input.queue,
        messageId,
      ],
      { prepare: true, client: trx }
    )
    await runner.send(input.queue, { deliveryId: id } satisfies DeliveryJob, { trx })
    return { ...input, ownerId: String(input.ownerId), id, messageId }
  }

  /** One try of a delivery; what a delivery queue's handler calls. */
  async attempt(deliveryId: string, send: Sender, job?: AttemptJob): Promise<AttemptResult> {
    const delivery = await this.#claim(deliveryId, job?.id ?? randomUUID())
    if (!delivery) return 'skipped'

    const number = delivery.attemptCount
    const attemptedAt = DateTime.now()
    const started = performance.now()
    let outcome: SendOutcome | null = null
    let error: string | null = null
    let permanent = false
    try {
      outcome = await send(delivery, { number })
    } catch (thrown) {
      error = describe(thrown)
      permanent = thrown instanceof OutboundError && PERMANENT.has(thrown.code)
    }
    const durationMs = Math.round(performance.now() - started)
    const status = outcome?.status ?? null
    if (status !== null && (status < 200 || status > 299)) error ??= `HTTP ${status}`

    // Decided once, outside the retried transaction: the recorded outcome must not change between retries.
    let settled: { status: Delivery['status']; result: AttemptResult; next: Date | null }
    if (status !== null && status >= 200 && status <= 299)
      settled = { status: 'delivered', result: 'delivered', next: null }
    else if (status === 410) settled = { status: 'disabled', result: 'gone', next: null }
    else {
      const delay = permanent
        ? null
        : this.nextDelay(delivery.roundAttempts, outcome?.headers?.['retry-after'])
      settled =
        delay === null
          ? { status: 'dead', result: 'dead', next: null }
          : { status: 'failed', result: 'retry', next: new Date(Date.now() + delay) }
    }

    return this.#record(deliveryId, async (trx) => {
      await DeliveryAttempt.create(
        { deliveryId, number, attemptedAt, statusCode: status, durationMs, error },
        { client: trx }
      )
      // Only while nobody has claimed it since (a take-over after a long outage records its own outcome).
      const updated = await trx.rawQuery(
        `update deliveries
            set status = ?, last_error = ?, next_attempt_at = ?, claim_job_id = null,
                delivered_at = case when ? then now() else delivered_at end
          where id = ? and attempt_count = ?
          returning id`,
        [
          settled.status,
          error as any,
          settled.next as any,
          settled.status === 'delivered',
          deliveryId,
          number,
        ]
      )
      if (updated.rows.length === 0) return 'skipped'
      if (settled.status === 'dead')
        await this.#deadHooks(delivery.merge({ lastError: error }), trx)
      if (settled.next) {
        await runner.send(delivery.queue, { deliveryId } satisfies DeliveryJob, {
          trx,
          startAfter: settled.next,
        })
      }
      return settled.result
    })
  }

  /**
   * Runs the recording transaction, retrying it for up to a minute: a try
   * whose message went out while the database was unreachable is recorded
   * once it is back, not lost (and sent again) with the job.
   */
  async #record<T>(
    deliveryId: string,
    work: (trx: TransactionClientContract) => Promise<T>
  ): Promise<T> {
    const deadline = Date.now() + RECORD_PATIENCE_MS
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await db.transaction(work)
      } catch (error) {
        if (Date.now() + wait > deadline) throw error
        logger.warn({ deliveryId, err: error }, 'recording a delivery attempt failed; retrying')
        await sleep(wait)
      }
    }
  }

  /**
   * The modules' `deliveryDead` hooks, each in a savepoint of the recording
   * transaction: what they write commits with the dead status, and a hook
   * that fails is logged without keeping the outcome from being recorded
   * (which would send the message again).
   */
  async #deadHooks(delivery: Delivery, trx: TransactionClientContract) {
    delivery.status = 'dead'
    for (const hook of await contributions('deliveryDead')) {
      try {
        await trx.transaction((savepoint) => hook.onDeliveryDead(delivery, savepoint))
      } catch (error) {
        logger.error({ deliveryId: delivery.id, err: error }, 'a deliveryDead hook failed')
      }
    }
  }

  /**
   * Milliseconds until the next try after the `tried`-th failed try of a round,
   * or null when the schedule is exhausted. `Retry-After` (seconds or an
   * HTTP-date, capped) can only push the next try later.
   */
  nextDelay(tried: number, retryAfter?: string | string[]): number | null {
    const schedule = settings.deliveryRetrySchedule
    if (tried > schedule.length) return null
    const base = schedule[tried - 1] * 1000
    const jittered = base * (0.8 + Math.random() * 0.4)
    const asked = parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter)
    const cap = settings.deliveryRetryAfterMax * 1000
    return Math.round(asked === null ? jittered : Math.max(jittered, Math.min(asked, cap)))
  }

  /**
   * Queues a delivery (by id), or every delivery of an owner (optionally one
   * channel), again: a fresh round of the schedule, the same message id.
   */
  async resend(
    which: string | { ownerType: string; ownerId: string | number; channel?: string },
    trx: TransactionClientContract,
    options: ResendOptions = {}
  ): Promise<Delivery[]> {
    const query = Delivery.query({ client: trx }).forUpdate()
    if (typeof which === 'string') query.where('id', which)
    else {
      query.where('owner_type', which.ownerType).where('owner_id', String(which.ownerId))
      if (which.channel) query.where('channel', which.channel)
    }
    const found = await query
    for (const delivery of found) {
      delivery.merge({
        status: 'pending',
        roundAttempts: 0,
        nextAttemptAt: DateTime.now(),
        lastError: null,
        claimJobId: null,
      })
      if (options.payload !== undefined) delivery.payload = options.payload
      if (options.target !== undefined) delivery.target = options.target
      await delivery.save()
      await runner.send(delivery.queue, { deliveryId: delivery.id } satisfies DeliveryJob, { trx })
    }
    return found
  }

  /** An owner's deliveries, oldest first, each with its attempts in order. */
  list(ownerType: string, ownerId: string | number) {
    return Delivery.query()
      .where('owner_type', ownerType)
      .where('owner_id', String(ownerId))
      .preload('attempts', (attempts) => attempts.orderBy('number', 'asc'))
      .orderBy('created_at', 'asc')
  }

  /**
   * Stops an open delivery without trying it (e.g. its channel was switched
   * off meanwhile): it becomes `disabled`; settled deliveries are untouched.
   */
  async cancel(deliveryId: string, reason: string) {
    await Delivery.query()
      .where('id', deliveryId)
      .whereIn('status', ['pending', 'failed'])
      .update({ status: 'disabled', next_attempt_at: null, last_error: reason })
  }

  find(deliveryId: string) {
    return Delivery.find(deliveryId)
  }

  /** Every delivery (operators' listings). */
  all() {
    return Delivery.query()
  }

  /**
   * Takes the delivery for one try when it is still open and due — or when
   * `jobId` itself holds the claim (pg-boss runs a job again only once its
   * previous run is over: the worker died or the handler threw). The claim
   * pushes `next_attempt_at` ahead so a duplicate job finds nothing to do. A
   * claim left by a try that never recorded its outcome is logged as an
   * interrupted attempt.
   */
  async #claim(deliveryId: string, jobId: string): Promise<Delivery | null> {
    if (!UUID.test(deliveryId)) return null
    const result = await db.rawQuery(
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
      [deliveryId, CLAIM_SECONDS, jobId, jobId]
    )
    const row = result.rows[0]
    if (!row) return null
    if (row.previous_claim !== null) {
      await db.rawQuery(
        `insert into delivery_attempts (delivery_id, number, attempted_at, status_code, duration_ms, error)
         select ?, ?, now(), null, 0, ?
          where not exists (select 1 from delivery_attempts where delivery_id = ? and number = ?)`,
        [deliveryId, row.attempt_count - 1, INTERRUPTED, deliveryId, row.attempt_count - 1]
      )
    }
    delete row.previous_claim
    return Delivery.$createFromAdapterResult(row)!
  }

  /**
   * Re-queues open deliveries that have no live job (their job's retries were
   * spent, or it was lost): what the `deliveries.sweep` cron runs each minute.
   * A claim whose job is gone is dead, so such a delivery is due at once.
   * Returns how many were queued.
   */
  async sweep(limit = 500): Promise<number> {
    return db.transaction(async (trx) => {
      const { rows } = await trx.rawQuery(
        `select d.id, d.queue, d.next_attempt_at, d.claim_job_id
           from deliveries d
          where d.status in ('pending', 'failed')
            and ${noLiveJob('d')}
          order by d.next_attempt_at nulls first
          limit ?
            for update of d skip locked`,
        [limit]
      )
      const known = new Set(runner.definitions().map((definition) => definition.name))
      let queued = 0
      for (const row of rows as Array<{
        id: string
        queue: string
        next_attempt_at: Date | null
        claim_job_id: string | null
      }>) {
        // A queue this process does not know (renamed, or a module removed) must not stop the sweep of the others.
        if (!known.has(row.queue)) {
          logger.error(
            { deliveryId: row.id, queue: row.queue },
            'open delivery on an unknown queue'
          )
          continue
        }
        queued++
        const future =
          row.next_attempt_at && row.next_attempt_at.getTime() > Date.now() && !row.claim_job_id
        if (!future)
          await trx.from('deliveries').where('id', row.id).update({ next_attempt_at: new Date() })
        await runner.send(row.queue, { deliveryId: row.id } satisfies DeliveryJob, {
          trx,
          ...(future ? { startAfter: row.next_attempt_at! } : {}),
        })
        logger.warn(
          { deliveryId: row.id, queue: row.queue },
          'delivery without a live job queued again'
        )
      }
      return queued
    })
  }

  /**
   * Open deliveries that are stuck: no live job, or overdue by more than a
   * minute (no worker is taking them). For `deliveries:list --stuck`.
   */
  stuck() {
    return Delivery.query()
      .whereIn('status', OPEN)
      .where((query) =>
        query
          .whereRaw(noLiveJob('deliveries'))
          .orWhereRaw("next_attempt_at < now() - interval '1 minute'")
      )
  }
}

const INTERRUPTED = 'interrupted: the worker stopped before the outcome was recorded'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `Retry-After` in milliseconds: delta seconds or an HTTP-date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return null
  return Math.max(0, date - Date.now())
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return (typeof code === 'string' ? `${code}: ` : '') + error.message.slice(0, 500)
  }
  return String(error).slice(0, 500)
}

/** The process's delivery service. */
export const deliveries = new DeliveryService()
export default deliveries
