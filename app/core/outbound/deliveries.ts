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
 * 4. `resend(idOrOwner, trx?, { payload?, target? })` queues it again with the same
 *    message id (`webhook-id`), in the caller's transaction or (without one) its
 *    own; `list(ownerType, ownerId, { appId? })` returns deliveries with their
 *    attempts for logs such as `/v3/consultas/{adminmail}/{sid}/entregas`.
 *
 * Crash recovery: delivery queues heartbeat (a killed worker's job is failed
 * and run again within about 20 s, same job id, which may take over its own
 * claim), and the `deliveries.sweep` cron re-queues any open delivery that has
 * no live job (retries spent, job lost). An interrupted try is recorded as such
 * when the delivery is claimed again.
 *
 * The SQL lives in `#core/stores/delivery_store`; this service decides (the
 * schedule, the outcome of a try, what a resend resets) and sends the jobs.
 * Get it injected (`@inject()`); `deliveries` is the process's instance for
 * code the container does not build.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { DateTime } from 'luxon'
import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import JobRunner from '#core/jobs/runner'
import type { JobDefinition } from '#core/jobs/types'
import { settings } from '#core/settings'
import { UnitOfWork, type Tx } from '#core/database/unit_of_work'
import DeliveryStore, {
  OPEN_STATUSES,
  type DeliverySelector,
  type Settlement,
} from '#core/stores/delivery_store'
import type Delivery from './models/delivery.js'
import type { DeliveryStatus } from './models/delivery.js'
import DeadDeliveryHooks from './dead_hooks.js'
import { newMessageId } from './signer.js'
import { OutboundError } from './http_client.js'

export { default as Delivery } from './models/delivery.js'
export { default as DeliveryAttempt } from './models/delivery_attempt.js'
export type { DeliveryStatus } from './models/delivery.js'
export type { DeadDeliveryHook } from './dead_hooks.js'

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
 * service schedules retries), except when a handler throws before recording or
 * its worker dies — a missed heartbeat (10 s, the pg-boss minimum) fails the
 * job, and it runs again 2–4 s later (backing off through a long outage), under
 * the same job id, which takes over its own claim.
 */
export const deliveryQueue: Readonly<NonNullable<JobDefinition['queue']>> = Object.freeze({
  retryLimit: 6,
  retryDelay: 2,
  retryBackoff: true,
  retryDelayMax: 120,
  heartbeatSeconds: 10,
  expireInSeconds: 120,
})

/**
 * Work options for delivery queues. NOTIFY wakes a worker when a job is sent,
 * which is too early for a retry sent with `startAfter`; the backstop poll
 * (`notifyPollingIntervalSeconds`, pg-boss default 30 s) is what picks it up
 * when due, so it is kept at a second here.
 */
export const deliveryWork = Object.freeze({
  pollingIntervalSeconds: 1,
  notifyPollingIntervalSeconds: 1,
  localConcurrency: 2,
}) satisfies NonNullable<JobDefinition['work']>

/** How long a claimed try keeps other jobs off (longer than any outbound timeout). */
const CLAIM_SECONDS = 120

/** How long the outcome of a try is retried into the database (an outage must not lose a sent message). */
const RECORD_PATIENCE_MS = 60_000

/** Errors that no retry can fix: the delivery is dead at once. */
const PERMANENT: ReadonlySet<string> = new Set(['private_address', 'bad_url', 'bad_scheme'])

/** How many stuck deliveries `overview` looks at. */
const STUCK_LIMIT = 10_000

/** What `deliveries:list --failed` shows besides the stuck ones. */
const RETRYING_OR_DEAD: readonly DeliveryStatus[] = Object.freeze(['failed', 'dead'])

const INTERRUPTED = 'interrupted: the worker stopped before the outcome was recorded'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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

@inject()
export class DeliveryService {
  constructor(
    private store: DeliveryStore,
    private unitOfWork: UnitOfWork,
    private runner: JobRunner,
    private deadHooks: DeadDeliveryHooks
  ) {}

  /** Inserts the delivery and sends its first job, both in `trx`. */
  async create(
    input: NewDelivery,
    trx: Tx
  ): Promise<NewDelivery & { id: string; ownerId: string; messageId: string }> {
    const id = randomUUID()
    const messageId = input.messageId ?? newMessageId()
    const ownerId = String(input.ownerId)
    await this.store.insert({ ...input, id, ownerId, messageId }, trx)
    await this.runner.send(input.queue, { deliveryId: id } satisfies DeliveryJob, { trx })
    return { ...input, ownerId, id, messageId }
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
    const { settlement, result } = this.#settle(
      delivery,
      status,
      error,
      permanent,
      outcome?.headers?.['retry-after']
    )

    return this.#record(deliveryId, async (tx) => {
      await this.store.insertAttempt(
        { deliveryId, number, attemptedAt, statusCode: status, durationMs, error },
        tx
      )
      // Only while nobody has claimed it since (a take-over after a long outage records its own outcome).
      if (!(await this.store.settle(deliveryId, number, settlement, tx))) return 'skipped'
      if (settlement.status === 'dead') await this.#runDeadHooks(delivery, error, tx)
      if (settlement.nextAttemptAt) {
        await this.runner.send(delivery.queue, { deliveryId } satisfies DeliveryJob, {
          trx: tx,
          startAfter: settlement.nextAttemptAt,
        })
      }
      return result
    })
  }

  /** Where a try leaves its delivery: 2xx delivered, 410 gone, else the next try or dead. */
  #settle(
    delivery: Delivery,
    status: number | null,
    lastError: string | null,
    permanent: boolean,
    retryAfter: string | string[] | undefined
  ): { settlement: Settlement; result: AttemptResult } {
    const ends = (state: 'delivered' | 'disabled' | 'dead', result: AttemptResult) => ({
      settlement: { status: state, lastError, nextAttemptAt: null },
      result,
    })
    if (status !== null && status >= 200 && status <= 299) return ends('delivered', 'delivered')
    if (status === 410) return ends('disabled', 'gone')
    const delay = permanent ? null : this.nextDelay(delivery.roundAttempts, retryAfter)
    if (delay === null) return ends('dead', 'dead')
    return {
      settlement: { status: 'failed', lastError, nextAttemptAt: new Date(Date.now() + delay) },
      result: 'retry',
    }
  }

  /**
   * Runs the recording unit of work, retrying it for up to a minute: a try
   * whose message went out while the database was unreachable is recorded
   * once it is back, not lost (and sent again) with the job.
   */
  async #record<T>(deliveryId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
    const deadline = Date.now() + RECORD_PATIENCE_MS
    for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
      try {
        return await this.unitOfWork.run(work)
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
  async #runDeadHooks(delivery: Delivery, lastError: string | null, tx: Tx) {
    delivery.merge({ status: 'dead', lastError })
    for (const hook of await this.deadHooks.all()) {
      try {
        await this.store.savepoint(tx, (savepoint) => hook(delivery, savepoint))
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
   * channel), again: a fresh round of the schedule, the same message id. In
   * `trx` when given, else in a unit of work of its own (`deliveries:retry`).
   */
  async resend(
    which: string | { ownerType: string; ownerId: string | number; channel?: string },
    trx?: Tx,
    options: ResendOptions = {}
  ): Promise<Delivery[]> {
    if (!trx) return this.unitOfWork.run((tx) => this.resend(which, tx, options))
    const found = await this.store.lock(which, trx)
    for (const delivery of found) {
      // A fresh round, due now; the message id stays.
      await this.store.update(
        delivery,
        {
          status: 'pending',
          roundAttempts: 0,
          nextAttemptAt: DateTime.now(),
          lastError: null,
          claimJobId: null,
          ...(options.payload !== undefined ? { payload: options.payload } : {}),
          ...(options.target !== undefined ? { target: options.target } : {}),
        },
        trx
      )
      await this.runner.send(delivery.queue, { deliveryId: delivery.id } satisfies DeliveryJob, {
        trx,
      })
    }
    return found
  }

  /**
   * The newest delivery of an owner's channel for one app, or null (what a
   * resend of that channel requeues).
   */
  latest(
    owner: { ownerType: string; ownerId: string | number; channel: string; appId: number },
    trx?: Tx
  ): Promise<Delivery | null> {
    return this.store.latest(owner satisfies DeliverySelector, trx)
  }

  /** An owner's deliveries (optionally one app's), oldest first, each with its attempts in order. */
  list(ownerType: string, ownerId: string | number, filter: { appId?: number } = {}) {
    return this.store.ofOwner(ownerType, ownerId, filter)
  }

  /**
   * Stops an open delivery without trying it (e.g. its channel was switched
   * off meanwhile): it becomes `disabled`; settled deliveries are untouched.
   */
  async cancel(deliveryId: string, reason: string): Promise<void> {
    await this.store.disable(deliveryId, reason, OPEN_STATUSES)
  }

  /**
   * Empties the payloads and attempt errors of the owners' deliveries (open
   * ones are disabled) in `trx`: a buyer's data suppressed (docs/design.md §16).
   * Answers each emptied delivery with its app and, for mails, its Message-ID.
   */
  async forget(
    which: { ownerType: string; ownerIds: Array<string | number> } | { messageIds: string[] },
    trx: Tx
  ): Promise<
    { id: string; appId: number; channel: string; ownerId: string; mailMessageId: string }[]
  > {
    const selector =
      'messageIds' in which
        ? which
        : { ownerType: which.ownerType, ownerIds: which.ownerIds.map(String) }
    const emptied = await this.store.forget(selector, trx)
    return emptied.map((row) => ({ ...row, mailMessageId: mailMessageId(row) }))
  }

  /**
   * Empties the payloads of `ownerType`'s settled deliveries created before
   * `before` (their resend window and retries are over), `limit` at a time in
   * short transactions; how many in all.
   */
  async emptySettled(ownerType: string, before: Date, limit = 1000): Promise<number> {
    let total = 0
    for (;;) {
      const emptied = await this.store.emptySettled(ownerType, before, limit)
      total += emptied
      if (emptied < limit) return total
    }
  }

  find(deliveryId: string) {
    return this.store.find(deliveryId)
  }

  /** Every delivery (operators' listings). */
  all() {
    return this.store.all()
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
    const claimed = await this.store.claim(deliveryId, jobId, CLAIM_SECONDS)
    if (!claimed) return null
    if (claimed.previousClaim !== null) {
      await this.store.recordInterrupted(deliveryId, claimed.delivery.attemptCount - 1, INTERRUPTED)
    }
    return claimed.delivery
  }

  /**
   * Re-queues open deliveries that have no live job (their job's retries were
   * spent, or it was lost): what the `deliveries.sweep` cron runs each minute.
   * A claim whose job is gone is dead, so such a delivery is due at once.
   * Returns how many were queued.
   */
  async sweep(limit = 500): Promise<number> {
    return this.unitOfWork.run(async (tx) => {
      const rows = await this.store.orphans(limit, tx)
      const known = new Set(this.runner.definitions().map((definition) => definition.name))
      let queued = 0
      for (const row of rows) {
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
          row.nextAttemptAt && row.nextAttemptAt.getTime() > Date.now() && !row.claimJobId
        if (!future) await this.store.makeDue(row.id, tx)
        await this.runner.send(row.queue, { deliveryId: row.id } satisfies DeliveryJob, {
          trx: tx,
          ...(future ? { startAfter: row.nextAttemptAt! } : {}),
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
   * Operators' view (`deliveries:list`): the newest deliveries, at most
   * `limit`; `only: 'failed'` keeps those retrying, dead or stuck, `'stuck'`
   * the stuck ones. `stuck` holds the ids of the stuck ones among them.
   */
  async overview(
    options: { only?: 'failed' | 'stuck'; limit?: number } = {}
  ): Promise<{ deliveries: Delivery[]; stuck: Set<string> }> {
    const stuck = await this.store.stuckIds(STUCK_LIMIT)
    const anyOf =
      options.only === 'stuck'
        ? { ids: stuck }
        : options.only === 'failed'
          ? { statuses: RETRYING_OR_DEAD, ids: stuck }
          : undefined
    const found = await this.store.newest(options.limit ?? 50, anyOf)
    return { deliveries: found, stuck: new Set(stuck) }
  }

  /**
   * Open deliveries that are stuck: no live job, or overdue by more than a
   * minute (no worker is taking them). For `deliveries:list --stuck`.
   */
  stuck() {
    return this.store.stuck()
  }
}

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
