/*
 * A second, empty database on the suite's PostgreSQL server, for tests that
 * need what a first boot sees (no rows anywhere). Reachable in-process as the
 * Lucid connection `name`; `drop()` removes connection and database.
 */
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import env from '#start/env'
import { ensureDatabase } from '#core/database/embedded'

export async function freshDatabase(name: string) {
  const database = `${name}_${process.pid}`
  const url = new URL(env.get('DATABASE_URL')!)
  url.pathname = `/${database}`
  await dropDatabase(database)
  await ensureDatabase(url.toString())
  db.manager.add(database, {
    client: 'pg',
    connection: url.toString(),
    // One connection: migrations release their advisory lock on the connection that took it.
    pool: { min: 0, max: 1 },
    migrations: { naturalSort: true, paths: ['database/migrations'] },
  })
  return {
    url: url.toString(),
    client: db.connection(database),
    async migrate() {
      const runner = new MigrationRunner(db, app, { direction: 'up', connectionName: database })
      await runner.run()
      if (runner.error) throw runner.error
    },
    async drop() {
      await db.manager.close(database, true)
      await dropDatabase(database)
    },
  }
}

async function dropDatabase(database: string) {
  await db.rawQuery(`drop database if exists "${database}" with (force)`)
}
