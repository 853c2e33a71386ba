import { flags } from '@adonisjs/core/ace'
import { AppCommand } from './app_command.js'

/**
 * Before a deploy: the migrations the configured database has not run yet,
 * and what each would lock (a static reading of the file, see
 * docs/operations.md "Upgrading"). Reads only; runs nothing.
 */
export default class MigrationCheck extends AppCommand {
  static commandName = 'migration:check'
  static description = 'List the pending migrations and the tables and lock levels each takes'

  @flags.string({ description: 'Database connection (config/database.ts)' })
  declare connection: string

  @flags.boolean({ description: 'Print the list as one line of JSON' })
  declare json: boolean

  async run() {
    const { readFile } = await import('node:fs/promises')
    const { MigrationRunner } = await import('@adonisjs/lucid/migration')
    const { locksOf, blockedBy, outsideTransaction } = await import('#database/migration_rules')
    const db = await this.app.container.make('lucid.db')
    const connectionName = this.connection ?? db.primaryConnectionName
    if (!db.manager.has(connectionName))
      return this.fail(`Unknown connection "${connectionName}" (config/database.ts)`)
    const runner = new MigrationRunner(db, this.app, { direction: 'up', connectionName })
    let list
    try {
      list = await runner.getList()
    } finally {
      await runner.close()
    }
    const pending = []
    for (const migration of list.filter((entry) => entry.status === 'pending')) {
      // Source in development, the compiled file in a build.
      const source = await readFile(this.app.makePath(`${migration.name}.ts`), 'utf8').catch(() =>
        readFile(this.app.makePath(`${migration.name}.js`), 'utf8')
      )
      pending.push({
        name: migration.name.split('/').pop()!,
        transaction: !outsideTransaction(source),
        locks: locksOf(source).map((lock) => ({ ...lock, blocks: blockedBy(lock.level) })),
      })
    }
    if (this.json) return this.printJson({ connection: connectionName, pending })

    if (pending.length === 0) {
      this.logger.success(`No pending migrations on "${connectionName}"`)
      return
    }
    this.logger.info(`${pending.length} pending migration(s) on "${connectionName}", in order:`)
    for (const migration of pending) {
      this.logger.log(
        `${migration.name} (${migration.transaction ? 'in a transaction' : 'outside a transaction'})`
      )
      if (migration.locks.length === 0) this.logger.log('  locks no table')
      for (const lock of migration.locks)
        this.logger.log(`  ${lock.table}: ${lock.level} — ${lock.by}; blocks ${lock.blocks}`)
    }
  }
}
