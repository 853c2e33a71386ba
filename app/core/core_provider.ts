/*
 * Core services of every process: the job runner (one pg-boss per process)
 * and the embedded database's lifetime. Registered first so that its
 * shutdown runs last.
 */
import type { ApplicationService } from '@adonisjs/core/types'
import JobRunner from '#core/jobs/runner'
import { detachDatabase } from '#core/database/embedded'

declare module '@adonisjs/core/types' {
  interface ContainerBindings {
    jobs: JobRunner
  }
}

export default class CoreProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    this.app.container.singleton(JobRunner, async (resolver) => {
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
  }

  async boot() {
    const { useSpanishMessages } = await import('#core/http/validation_messages')
    useSpanishMessages()
    await this.#buildOnce()
    const runner = await this.app.container.make(JobRunner)
    // Jobs stop before the database connections close (terminating hooks run first).
    this.app.terminating(async () => {
      await runner.stop()
    })
  }

  /** The middleware every request makes, and the entry point (app/core/build_once.ts). */
  async #buildOnce() {
    const { buildOnce } = await import('#core/build_once')
    await buildOnce(
      () => import('#core/http/middleware/request_log_middleware'),
      () => import('@adonisjs/cors/cors_middleware'),
      () => import('#core/http/middleware/json_body_middleware'),
      () => import('@adonisjs/core/bodyparser_middleware'),
      () => import('#core/http/middleware/input_gate_middleware'),
      () => import('#core/http/middleware/idempotency_middleware'),
      () => import('#core/controllers/entry_point_controller')
    )
  }

  async shutdown() {
    await detachDatabase()
  }
}
