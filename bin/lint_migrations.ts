/*
 * `npm run lint:migrations`: the migration rules of docs/operations.md.
 *
 * Landed migrations are those in `database/migrations.lock` (file name and
 * sha256, no network needed) and, when git knows `origin/main` (or `main`),
 * those in that branch's tree: each must be byte for byte what landed. Every
 * other migration must follow the rules (database/migration_rules.ts).
 * `--record` adds the new migrations that pass to the lock: the commit that
 * lands them on main runs it.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  formatLock,
  hashOf,
  lintMigrations,
  parseLock,
  checkMigration,
} from '../database/migration_rules.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const FOLDER = join(ROOT, 'database', 'migrations')
const LOCK = join(ROOT, 'database', 'migrations.lock')
const HEADER = `# Migrations landed on main: sha256 and file name (sha256sum's format). Never edit one of
# these files; \`npm run lint:migrations\` checks them. The commit that lands new migrations on
# main records them with \`npm run lint:migrations -- --record\`.
`

const started = performance.now()
const files = readdirSync(FOLDER)
  .filter((name) => /\.(ts|js)$/.test(name))
  .map((name) => ({ name, source: readFileSync(join(FOLDER, name), 'utf8') }))
const recorded = parseLock(readFileSync(LOCK, 'utf8'))
const landed = new Map(recorded)

// What main holds counts as landed even before someone records it.
const ref = mainRef()
if (ref) {
  const local = new Set(files.map((file) => file.name))
  for (const name of git('ls-tree', '--name-only', `${ref}:database/migrations`).split('\n')) {
    if (!name || landed.has(name) || !local.has(name)) continue
    landed.set(name, hashOf(git('show', `${ref}:database/migrations/${name}`)))
  }
}

const problems = lintMigrations(files, landed)
const fresh = files.filter((file) => !landed.has(file.name))

if (process.argv.includes('--record')) {
  const passing = fresh.filter((file) => checkMigration(file).length === 0)
  for (const file of passing) recorded.set(file.name, hashOf(file.source))
  writeFileSync(LOCK, formatLock(recorded, HEADER))
  console.log(`recorded ${passing.map((file) => file.name).join(', ') || 'nothing new'}`)
}

for (const problem of problems)
  console.error(`${problem.file}: [${problem.rule}] ${problem.message}`)
const ms = Math.round(performance.now() - started)
console.log(
  `lint:migrations: ${files.length} migrations, ${files.length - fresh.length} landed` +
    `${ref ? ` (lock + ${ref})` : ' (lock)'}, ${fresh.length} new checked` +
    ` (${fresh.map((file) => file.name).join(', ') || 'none'}): ` +
    `${problems.length ? `${problems.length} problem(s)` : 'ok'} in ${ms} ms`
)
process.exitCode = problems.length ? 1 : 0

function git(...args: string[]) {
  return execFileSync('git', args, {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
}

/** MIGRATIONS_MAIN_REF, else origin/main, else main; null without git or such a ref. */
function mainRef() {
  const candidates = process.env.MIGRATIONS_MAIN_REF
    ? [process.env.MIGRATIONS_MAIN_REF]
    : ['origin/main', 'main']
  for (const candidate of candidates) {
    try {
      git('rev-parse', '--verify', '--quiet', `${candidate}^{commit}`)
      return candidate
    } catch {}
  }
  return null
}
