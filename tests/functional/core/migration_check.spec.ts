/*
 * `node ace migration:check`: the migrations a database has not run yet and
 * what each locks (docs/operations.md "Upgrading"), run as an operator runs
 * it, against a fresh database of the suite's server and the suite's own.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { freshDatabase } from '#tests/helpers/fresh_database'

const run = promisify(execFile)

async function check(databaseUrl: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, ['ace', 'migration:check', ...args], {
    cwd: app.makePath(),
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  })
  return stdout
}

interface Pending {
  name: string
  transaction: boolean
  locks: Array<{ table: string; level: string; by: string; blocks: string }>
}
const pendingOf = async (url: string) => JSON.parse(await check(url, '--json')).pending as Pending[]

test.group('migration:check', () => {
  test('lists every pending migration in order with its locks, then only what is left', async ({
    assert,
  }) => {
    const fresh = await freshDatabase('migration_check')
    try {
      const files = readdirSync(app.makePath('database/migrations'))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => name.replace(/\.ts$/, ''))
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))

      // Nothing run yet: all of them, in the order migration:run takes them.
      const all = await pendingOf(fresh.url)
      assert.deepEqual(
        all.map((migration) => migration.name),
        files
      )
      const counts = all.find((migration) => migration.name === '0401_leads_inquiry_counts')!
      assert.isTrue(counts.transaction)
      assert.deepInclude(counts.locks, {
        table: 'inquiries',
        level: 'SHARE ROW EXCLUSIVE',
        by: 'lock table',
        blocks: 'writes',
      })

      // Run, then 0505 forgotten by the database: it alone is pending.
      await fresh.migrate()
      await fresh.client
        .from('adonis_schema')
        .where('name', 'database/migrations/0505_buyers_document_key')
        .delete()
      const left = await pendingOf(fresh.url)
      assert.deepEqual(
        left.map((migration) => migration.name),
        ['0505_buyers_document_key']
      )
      assert.isFalse(left[0].transaction)
      assert.deepInclude(left[0].locks, {
        table: 'inquiries',
        level: 'SHARE UPDATE EXCLUSIVE',
        by: 'create index concurrently (writes go on)',
        blocks: 'schema changes and vacuum only',
      })
      assert.match(
        await check(fresh.url),
        /1 pending migration\(s\)[\s\S]*0505_buyers_document_key \(outside a transaction\)\n {2}index inquiries_buyer_document_key: SHARE UPDATE EXCLUSIVE/
      )
    } finally {
      await fresh.drop()
    }
  }).timeout(120_000)

  test('the suite database, migrated: nothing pending', async ({ assert }) => {
    const url = process.env.DATABASE_URL!
    assert.deepEqual(await pendingOf(url), [])
    assert.match(await check(url), /No pending migrations on "postgres"/)
  })
})
