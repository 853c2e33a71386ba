/*
 * Commands find their data (docs/design.md §24): an ace command run with a
 * DATA_DIR (or none) that holds no migrated database says so in one line
 * naming that DATA_DIR, exits non-zero and creates nothing; `migration:run`
 * still makes the database, and then the same command works.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import pg from 'pg'
import { startCluster } from '#core/database/embedded'

const run = promisify(execFile)

/** `node ace …` as an operator types it: a development setup, the embedded database under `dataDir`. */
function ace(args: string[], dataDir: string) {
  const { DATABASE_URL: _, ...inherited } = process.env
  return run(process.execPath, ['ace', ...args], {
    cwd: app.makePath(),
    env: { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'silent', DATA_DIR: dataDir },
    timeout: 120_000,
  })
}

/** Output lines of a failed command, escape sequences stripped. */
function failure(error: any) {
  const text = `${error.stdout ?? ''}${error.stderr ?? ''}`.replace(
    // eslint-disable-next-line no-control-regex -- strips terminal colour codes
    /\x1b(\[[0-9;]*[A-Za-z]|c)/g,
    ''
  )
  return { code: error.code, lines: text.split('\n').filter((line) => line.trim()) }
}

async function refused(args: string[], dataDir: string) {
  try {
    await ace(args, dataDir)
  } catch (error) {
    return failure(error)
  }
  throw new Error(`${args.join(' ')} succeeded with DATA_DIR ${dataDir}`)
}

let made = 0
function scratch() {
  const dir = app.makePath('tmp', `find-data-${process.pid}-${++made}`)
  fs.rmSync(dir, { recursive: true, force: true })
  return dir
}

test.group('Commands find their data', () => {
  test('an empty DATA_DIR, or one that does not exist: one line naming it, exit 1, nothing created', async ({
    assert,
  }) => {
    const empty = scratch()
    fs.mkdirSync(empty)
    const missing = scratch()
    try {
      for (const dir of [empty, missing]) {
        const { code, lines } = await refused(['deliveries:list'], dir)
        assert.equal(code, 1, dir)
        assert.lengthOf(lines, 1, lines.join('\n'))
        assert.include(lines[0], `DATA_DIR ${dir}`)
        assert.include(lines[0], 'migration:run')
        assert.notInclude(lines[0], 'relation')
      }
      assert.deepEqual(fs.readdirSync(empty), [], 'nothing is created in an empty DATA_DIR')
      assert.isFalse(fs.existsSync(missing), 'a missing DATA_DIR is not created')
    } finally {
      fs.rmSync(empty, { recursive: true, force: true })
    }
  }).timeout(60_000)

  test('a cluster without a migrated database: one line, no database made; after migration:run the command works', async ({
    assert,
  }) => {
    const dir = scratch()
    const cluster = await startCluster(join(dir, 'pg'))
    await cluster.stop()
    const databases = async () => {
      await cluster.start()
      const client = new pg.Client({ connectionString: cluster.url('postgres') })
      await client.connect()
      try {
        const { rows } = await client.query('select datname from pg_database order by datname')
        return rows.map((row) => row.datname as string)
      } finally {
        await client.end()
        await cluster.stop()
      }
    }
    try {
      const before = await databases()
      const { code, lines } = await refused(['deliveries:list'], dir)
      assert.equal(code, 1)
      assert.lengthOf(lines, 1, lines.join('\n'))
      assert.include(lines[0], `DATA_DIR ${dir} holds no migrated database`)
      assert.deepEqual(await databases(), before, 'no database is created')

      await ace(['migration:run', '--force'], dir)
      const { stdout } = await ace(['app:create', 'Found its data', '--json'], dir)
      assert.equal(JSON.parse(stdout).Nombre, 'Found its data')
    } finally {
      await cluster.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }).timeout(120_000)
})
