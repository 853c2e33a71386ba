import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'

/** Runs pending migrations; returns how many ran. */
export function migrate(): Promise<number> {
  return run(new MigrationRunner(db, app, { direction: 'up', connectionName: 'migrations' }))
}

/** Rolls every migration back (the test suite's teardown proves each `down()`). */
export function rollbackAll(): Promise<number> {
  return run(
    new MigrationRunner(db, app, { direction: 'down', batch: 0, connectionName: 'migrations' })
  )
}

/**
 * On the one-connection `migrations` pool: PostgreSQL's session-level
 * advisory lock is then released on the connection that took it.
 */
async function run(runner: MigrationRunner): Promise<number> {
  try {
    await runner.run()
  } finally {
    await db.manager.close('migrations')
  }
  if (runner.error) throw runner.error
  return Object.keys(runner.migratedFiles).length
}
