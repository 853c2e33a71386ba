/*
 * Outbound deliveries: one row per message (webhook, hook, mail), one row per
 * attempt, and the retry schedule of DESIGN.md §8.
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
 * 3. The queue handler receives `{ deliveryId }` and hands one try to `attempt`:
 *
 *      const result = await deliveries.attempt(data.deliveryId, async (delivery) => {
 *        const body = JSON.stringify(delivery.payload)
 *        const response = await outbound.request(delivery.target, { method: 'POST', body, headers: {...} })
 *        return { status: response.status, headers: response.headers }
 *      })
 *      if (result === 'gone') { ...deactivate the channel (the receiver answered 410)... }
 *
 *    `send` resolves the receiver's status (non-HTTP channels such as mail
 *    resolve `{ status: 200 }` on success) or throws; `attempt` records the try,
 *    marks 2xx delivered, 410 disabled (`'gone'`), and schedules the next try
 *    for anything else (honouring `Retry-After`) until the schedule runs out
 *    (`'dead'`, still resendable). A delivered, dead, disabled or not-yet-due
 *    delivery is skipped, so duplicate jobs are harmless.
 *
 * 4. `resend(idOrOwner, trx, { payload?, target? })` queues it again with the same
 *    message id (`webhook-id`); `list(ownerType, ownerId)` returns deliveries with
 *    their attempts for logs such as `/v3/consultas/{adminmail}/{sid}/entregas`.
 */
import { randomUUID } from 'node:crypto'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import runner from '#core/jobs/main'
import { settings } from '#core/settings'
import type { JobDefinition } from '#core/jobs/types'
import Delivery from './models/delivery.js'
import DeliveryAttempt from './models/delivery_attempt.js'
import { newMessageId } from './signer.js'

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
 * Queue options for delivery queues: pg-boss does not retry a try itself (the
 * service schedules retries), except when a handler crashes or throws before
 * recording — then it runs the job again once the claim has lapsed.
 */
export const deliveryQueue: NonNullable<JobDefinition['queue']> = {
  retryLimit: 3,
  retryDelay: 150,
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

/** How long a claimed try keeps other workers off (longer than any outbound timeout). */
const CLAIM_SECONDS = 120

export class DeliveryService {
  /** Inserts the delivery and sends its first job, both in `trx`. */
  async create(input: NewDelivery, trx: TransactionClientContract): Promise<Delivery> {
    const delivery = await Delivery.create(
      {
        id: randomUUID(),
        channel: input.channel,
        ownerType: input.ownerType,
        ownerId: String(input.ownerId),
        appId: input.appId,
        target: input.target,
        payload: input.payload,
        queue: input.queue,
        messageId: input.messageId ?? newMessageId(),
        status: 'pending',
        attemptCount: 0,
        roundAttempts: 0,
        nextAttemptAt: DateTime.now(),
      },
      { client: trx }
    )
    await runner.send(input.queue, { deliveryId: delivery.id } satisfies DeliveryJob, { trx })
    return delivery
  }

  /** One try of a delivery; what a delivery queue's handler calls. */
  async attempt(deliveryId: string, send: Sender): Promise<AttemptResult> {
    const delivery = await this.#claim(deliveryId)
    if (!delivery) return 'skipped'

    const number = delivery.attemptCount
    const attemptedAt = DateTime.now()
    const started = performance.now()
    let outcome: SendOutcome | null = null
    let error: string | null = null
    try {
      outcome = await send(delivery, { number })
    } catch (thrown) {
      error = describe(thrown)
    }
    const durationMs = Math.round(performance.now() - started)
    const status = outcome?.status ?? null
    if (status !== null && (status < 200 || status > 299)) error ??= `HTTP ${status}`

    return db.transaction(async (trx) => {
      await DeliveryAttempt.create(
        { deliveryId, number, attemptedAt, statusCode: status, durationMs, error },
        { client: trx }
      )
      delivery.useTransaction(trx)
      delivery.lastError = error
      if (status !== null && status >= 200 && status <= 299) {
        delivery.merge({ status: 'delivered', deliveredAt: DateTime.now(), nextAttemptAt: null })
        await delivery.save()
        return 'delivered'
      }
      if (status === 410) {
        delivery.merge({ status: 'disabled', nextAttemptAt: null })
        await delivery.save()
        return 'gone'
      }
      const delay = this.nextDelay(delivery.roundAttempts, outcome?.headers?.['retry-after'])
      if (delay === null) {
        delivery.merge({ status: 'dead', nextAttemptAt: null })
        await delivery.save()
        return 'dead'
      }
      const next = new Date(Date.now() + delay)
      delivery.merge({ status: 'failed', nextAttemptAt: DateTime.fromJSDate(next) })
      await delivery.save()
      await runner.send(delivery.queue, { deliveryId } satisfies DeliveryJob, { trx, startAfter: next })
      return 'retry'
    })
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
      delivery.merge({ status: 'pending', roundAttempts: 0, nextAttemptAt: DateTime.now(), lastError: null })
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

  /**
   * Takes the delivery for one try when it is still open and due; the claim
   * pushes `next_attempt_at` ahead so a duplicate job finds nothing to do.
   */
  async #claim(deliveryId: string): Promise<Delivery | null> {
    if (!UUID.test(deliveryId)) return null
    const result = await db.rawQuery(
      `update deliveries
          set attempt_count = attempt_count + 1,
              round_attempts = round_attempts + 1,
              next_attempt_at = now() + make_interval(secs => ?)
        where id = ?
          and status in ('pending', 'failed')
          and (next_attempt_at is null or next_attempt_at <= now() + interval '1 second')
        returning *`,
      [CLAIM_SECONDS, deliveryId]
    )
    const row = result.rows[0]
    return row ? Delivery.$createFromAdapterResult(row)! : null
  }
}

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
