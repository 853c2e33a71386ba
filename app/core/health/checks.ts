/*
 * Readiness: the database answers and the job runner can reach its queues.
 * Each check gives up after CHECK_TIMEOUT_MS: a database that does not answer
 * makes the service not ready (503) rather than the probe hang.
 */
import app from '@adonisjs/core/services/app'
import { BaseCheck, HealthChecks, Result } from '@adonisjs/core/health'
import JobRunner from '#core/jobs/runner'
import { ping } from '#core/database/ping'

const CHECK_TIMEOUT_MS = 2_000

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS
    )
  })
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer))
}

class DatabaseCheck extends BaseCheck {
  name = 'database'
  async run() {
    try {
      await withinTimeout(ping())
      return Result.ok('La base de datos responde.')
    } catch (error) {
      return Result.failed('La base de datos no responde.', error as Error)
    }
  }
}

class JobRunnerCheck extends BaseCheck {
  name = 'jobs'
  async run() {
    try {
      await withinTimeout(
        (async () => {
          const runner = await app.container.make(JobRunner)
          const boss = await runner.boss()
          await boss.getQueues()
        })()
      )
      return Result.ok('El ejecutor de tareas está conectado.')
    } catch (error) {
      return Result.failed('El ejecutor de tareas no está disponible.', error as Error)
    }
  }
}

export const healthChecks = new HealthChecks().register([new DatabaseCheck(), new JobRunnerCheck()])
