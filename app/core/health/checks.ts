/*
 * Readiness: the database answers and the job runner can reach its queues.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { BaseCheck, HealthChecks, Result } from '@adonisjs/core/health'
import JobRunner from '#core/jobs/runner'

class DatabaseCheck extends BaseCheck {
  name = 'database'
  async run() {
    try {
      await db.rawQuery('select 1')
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
      const runner = await app.container.make(JobRunner)
      const boss = await runner.boss()
      await boss.getQueues()
      return Result.ok('El ejecutor de tareas está conectado.')
    } catch (error) {
      return Result.failed('El ejecutor de tareas no está disponible.', error as Error)
    }
  }
}

export const healthChecks = new HealthChecks().register([new DatabaseCheck(), new JobRunnerCheck()])
