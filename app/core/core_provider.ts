/*
 * The core module's provider, first in adonisrc.ts (so that its shutdown runs
 * last): the registry every module contributes to, the job runner (one pg-boss
 * per process), the middleware of every request, and the boot-time check of
 * the lifetimes (app/core/lifetimes.ts). Also the embedded database's lifetime.
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import CorsMiddleware from '@adonisjs/cors/cors_middleware'
import { defineConfig } from '@adonisjs/cors'
import JobRunner from '#core/jobs/runner'
import { detachDatabase } from '#core/database/embedded'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import RequestLogMiddleware from '#core/http/middleware/request_log_middleware'
import JsonBodyMiddleware from '#core/http/middleware/json_body_middleware'
import InputGateMiddleware from '#core/http/middleware/input_gate_middleware'
import IdempotencyMiddleware from '#core/http/middleware/idempotency_middleware'
import EntryPointController from '#core/controllers/entry_point_controller'
import Idempotency from '#core/http/idempotency'
import IdempotencyStore from '#core/stores/idempotency_store'
import { DeliveryService } from '#core/outbound/deliveries'
import DeliveryStore from '#core/stores/delivery_store'
import DeadDeliveryHooks from '#core/outbound/dead_hooks'
import { UnitOfWork } from '#core/database/unit_of_work'

declare module '@adonisjs/core/types' {
  interface ContainerBindings {
    jobs: JobRunner
  }
}

export default class CoreProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // Read by core, written by every module's boot(): one for the process.
    lifetimes.singleton(ModuleRegistry, () => new ModuleRegistry())
    // One pg-boss per process: its connection pool, queues and workers.
    lifetimes.singleton(JobRunner, async (resolver) => {
      const logger = await resolver.make('logger')
      const { default: env } = await import('#start/env')
      // pg-boss needs a session (LISTEN/NOTIFY, advisory locks): JOBS_DATABASE_URL
      // bypasses a transaction-mode pooler that DATABASE_URL may go through.
      return new JobRunner(
        this.app,
        logger,
        () => env.get('JOBS_DATABASE_URL') || env.get('DATABASE_URL')!
      )
    })
    this.app.container.alias('jobs', JobRunner)
    // Made by AppProvider once per process; the input gate builds on it.
    lifetimes.processWide(BodyParserMiddleware)
    // The middleware every request makes and the entry point keep nothing between
    // requests: one each saves their make on every request (docs/performance.md).
    lifetimes.singleton(RequestLogMiddleware)
    lifetimes.singleton(JsonBodyMiddleware)
    lifetimes.singleton(InputGateMiddleware)
    lifetimes.singleton(IdempotencyMiddleware)
    lifetimes.singleton(EntryPointController)
    lifetimes.singleton(Idempotency)
    // Every process sends its deliveries through one service; it keeps nothing between them.
    lifetimes.singleton(DeliveryService)
    lifetimes.singleton(DeadDeliveryHooks)
    // Stores and the unit of work keep nothing: they go through the process's pool.
    lifetimes.singleton(IdempotencyStore)
    lifetimes.singleton(DeliveryStore)
    lifetimes.singleton(UnitOfWork)
  }

  async boot() {
    const lifetimes = Lifetimes.of(this.app.container)
    // CorsProvider binds it per make, after this register(): rebound here, once
    // per process like the other middleware of every request (it keeps only its config).
    lifetimes.singleton(
      CorsMiddleware,
      () => new CorsMiddleware(this.app.config.get('cors', defineConfig({})))
    )
    // Every provider has registered: a process-wide object built on a shorter-lived one fails the boot.
    lifetimes.check()

    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('core', {
      jobs: () => import('#core/outbound/jobs'),
      openapi: () => import('#core/openapi/core'),
    })
    registry.contribute('core.http', {
      jobs: () => import('#core/http/jobs'),
      openapi: () => import('#core/metrics/openapi'),
    })

    const runner = await this.app.container.make(JobRunner)
    // Jobs stop before the database connections close (terminating hooks run first).
    this.app.terminating(async () => {
      await runner.stop()
    })
  }

  /** Every module's provider has booted: the job runner learns their queues. */
  async start() {
    const runner = await this.app.container.make(JobRunner)
    const { moduleJobs } = await import('#core/jobs/registry')
    runner.register(...(await moduleJobs()))
  }

  async shutdown() {
    await detachDatabase()
  }
}
