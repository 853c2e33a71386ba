import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'

/** Runs pending migrations; returns how many ran. */
export async function migrate(): Promise<number> {
  const runner = new MigrationRunner(db, app, { direction: 'up' })
  await runner.run()
  if (runner.error) throw runner.error
  return Object.keys(runner.migratedFiles).length
}
