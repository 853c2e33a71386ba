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
    const runner = await this.app.container.make(JobRunner)
    // Jobs stop before the database connections close (terminating hooks run first).
    this.app.terminating(async () => {
      await runner.stop()
    })
  }

  async shutdown() {
    await detachDatabase()
  }
}
