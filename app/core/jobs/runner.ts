/*
 * The job runner: one pg-boss instance per process, in the service's own
 * PostgreSQL (schema `pgboss`). Web processes only send; `jobs:work` (or
 * `npm start`) also works queues and runs schedules. Jobs that must follow a
 * write are sent inside the caller's Lucid transaction.
 */
import { PgBoss } from 'pg-boss'
import type { SendOptions } from 'pg-boss'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import type { ApplicationService } from '@adonisjs/core/types'
import type { Logger } from '@adonisjs/core/logger'
import { settings } from '#core/settings'
import { inTransaction } from '#core/database/pg_boss_db'
import type { JobContext, JobDefinition, JobHandler } from './types.js'

export type StartOptions = {
  /** Work these queues (true: all registered). */
  work?: boolean | string[]
  /** Create the cron schedules and run maintenance. */
  schedule?: boolean
}

/**
 * Batches with burst: after a full batch the worker fetches again at once, so
 * a backlog (several jobs sent in one transaction share one NOTIFY) drains
 * without waiting for the backstop poll. NOTIFY wakes idle workers; the
 * backstop poll stays short because retries sent with `startAfter` become due
 * without a notification.
 */
const WORK_DEFAULTS = {
  batchSize: 4,
  burstWhenBatchFull: true,
  pollingIntervalSeconds: 2,
  notifyPollingIntervalSeconds: 2,
}

export type EnqueueOptions = Omit<SendOptions, 'db'> & { trx?: TransactionClientContract }

export default class JobRunner {
  #boss: PgBoss | null = null
  #starting: Promise<PgBoss> | null = null
  #definitions = new Map<string, JobDefinition>()
  #working = new Set<string>()
  #created = new Set<string>()

  constructor(
    private app: ApplicationService,
    private logger: Logger,
    private connectionString: () => string
  ) {}

  register(...definitions: JobDefinition[]) {
    for (const definition of definitions) {
      this.#definitions.set(definition.name, definition)
      this.#created.delete(definition.name)
    }
  }

  definitions() {
    return [...this.#definitions.values()]
  }

  get started() {
    return this.#boss !== null
  }

  /** Starts pg-boss once; later calls return the same instance. */
  async boss(options: StartOptions = {}): Promise<PgBoss> {
    if (this.#boss) return this.#boss
    // A start that failed (database away) is forgotten, so the next send tries again.
    this.#starting ??= this.#start(options).catch((error) => {
      this.#starting = null
      throw error
    })
    return this.#starting
  }

  async #start(options: StartOptions) {
    const boss = new PgBoss({
      connectionString: this.connectionString(),
      schema: 'pgboss',
      max: options.work ? 6 : 3,
      application_name: options.work ? 'jobs-worker' : 'jobs-sender',
      useListenNotify: true,
      // Every instance may supervise (expired jobs are retried even when the
      // only live process is a web one); pg-boss coordinates them with locks.
      supervise: true,
      // The supervisor fails jobs whose heartbeat stopped (a killed worker);
      // every 5 s instead of 60 s, so such a job runs again within ~20 s
      // (heartbeat 10 s + this pass + the queue's retry delay).
      superviseIntervalSeconds: 5,
      monitorIntervalSeconds: 5,
      schedule: true,
    })
    boss.on('error', (error) => this.logger.error({ err: error }, 'job runner error'))
    await boss.start()
    this.#boss = boss
    return boss
  }

  /** Creates (or updates) a queue once per process, before its first send or work. */
  async #ensureQueue(boss: PgBoss, definition: JobDefinition) {
    if (this.#created.has(definition.name)) return
    const { deadLetter, ...queue } = definition.queue ?? {}
    if (deadLetter) await boss.createQueue(deadLetter, {})
    const options = { notify: true, ...queue, ...(deadLetter ? { deadLetter } : {}) }
    await boss.createQueue(definition.name, options)
    await boss.updateQueue(definition.name, options)
    this.#created.add(definition.name)
  }

  /** Starts workers (and schedules) for the registered queues. */
  async work(options: StartOptions = { work: true, schedule: true }) {
    const boss = await this.boss(options)
    const names = Array.isArray(options.work) ? options.work : [...this.#definitions.keys()]
    for (const name of names) {
      const definition = this.#definitions.get(name)
      if (!definition) throw new Error(`Unknown queue "${name}"`)
      if (this.#working.has(name)) continue
      this.#working.add(name)
      await this.#ensureQueue(boss, definition)
      await this.#prepare(definition)
      const work = { ...WORK_DEFAULTS, ...definition.work, perJobResults: true }
      await boss.work(name, work, async (jobs) => {
        // Jobs of a batch run side by side and settle one by one: a failing
        // job is retried alone, the others complete.
        const results = await Promise.all(
          jobs.map(async (job) => {
            try {
              await this.execute(definition, job.data, {
                id: job.id,
                name,
                retryCount: (job as any).retryCount ?? 0,
              })
              return { id: job.id, status: 'completed' as const }
            } catch (error) {
              return {
                id: job.id,
                status: 'failed' as const,
                output: { message: (error as Error)?.message ?? String(error) },
              }
            }
          })
        )
        // A full batch means more may be waiting: this queue's workers fetch again at
        // once instead of after the backstop poll (pg-boss bursts only for batches
        // above one, and a NOTIFY of jobs sent together wakes each worker once).
        if (jobs.length >= work.batchSize) this.#wake(boss, name)
        return results
      })
      if (options.schedule && definition.schedule) {
        await boss.schedule(name, definition.schedule, {}, { tz: settings.timezone })
      }
    }
    return names
  }

  /** Loads a queue's handler and runs its warm-up before the first job; a failed warm-up is logged, not fatal. */
  async #prepare(definition: JobDefinition) {
    try {
      const { default: Handler } = await definition.handler()
      await Handler.warmUp?.()
    } catch (error) {
      this.logger.warn({ queue: definition.name, err: error }, 'job handler warm-up failed')
    }
  }

  #wake(boss: PgBoss, name: string) {
    for (const worker of boss.getWipData()) {
      if (worker.name === name) boss.notifyWorker(worker.id)
    }
  }

  /** Sends a job; inside `trx` it is committed or rolled back with the caller's write. */
  async send<T extends object>(name: string, data: T, options: EnqueueOptions = {}) {
    const definition = this.#definitions.get(name)
    if (!definition) throw new Error(`Unknown queue "${name}"`)
    const boss = await this.boss()
    await this.#ensureQueue(boss, definition)
    const { trx, ...sendOptions } = options
    return boss.send(name, data, trx ? { ...sendOptions, db: inTransaction(trx) } : sendOptions)
  }

  /** Runs a queue's handler now, in this process, without the queue. */
  async runNow(name: string, data: object = {}) {
    const definition = this.#definitions.get(name)
    if (!definition) throw new Error(`Unknown queue "${name}"`)
    await this.execute(definition, data, { id: 'manual', name, retryCount: 0 })
  }

  async execute(definition: JobDefinition, data: any, job: JobContext) {
    const { default: Handler } = await definition.handler()
    const handler: JobHandler = await this.app.container.make(Handler)
    const started = Date.now()
    try {
      await handler.handle(data, job)
      this.logger.info(
        { queue: job.name, jobId: job.id, durationMs: Date.now() - started },
        'job done'
      )
    } catch (error) {
      this.logger.warn({ queue: job.name, jobId: job.id, err: error }, 'job failed')
      throw error
    }
  }

  /** Graceful stop: running handlers finish (up to `timeout` ms). */
  async stop(timeout = 10_000) {
    const boss = this.#boss ?? (this.#starting ? await this.#starting.catch(() => null) : null)
    this.#boss = null
    this.#starting = null
    this.#working.clear()
    this.#created.clear()
    await boss?.stop({ graceful: true, timeout })
  }
}
