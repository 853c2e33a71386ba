/*
 * The rules of docs/operations.md "Migrations" (design §22), read statically
 * from a migration's source: what `npm run lint:migrations` refuses and what
 * `ace migration:check` says each pending migration locks. A reading, not a
 * parser: it knows the forms this project writes (knex builders and
 * `this.schema.raw` SQL), and errs towards refusing.
 */
import { createHash } from 'node:crypto'

/** Tables written all the time: an index on them is built `concurrently`. */
export const BUSY_TABLES = ['listings', 'inquiries', 'deliveries', 'app_events']

/** The longest `lock_timeout` a migration may set. */
export const MAX_LOCK_TIMEOUT_MS = 3000

export type Rule =
  | 'landed-edited'
  | 'landed-removed'
  | 'lock-table'
  | 'column-type'
  | 'index-not-concurrent'
  | 'lock-timeout'
  | 'statement-timeout'
  | 'concurrently-in-transaction'
  | 'set-local-outside-transaction'

export interface Problem {
  file: string
  rule: Rule
  message: string
}

export interface Lock {
  table: string
  level: string
  /** What takes it, in the migration's words. */
  by: string
}

export interface MigrationFile {
  /** File name inside database/migrations, e.g. `0505_buyers_document_key.ts`. */
  name: string
  source: string
}

export const hashOf = (source: string) => createHash('sha256').update(source).digest('hex')

/** `database/migrations.lock`: `<sha256>  <file name>` lines (sha256sum's format); `#` comments. */
export function parseLock(text: string) {
  const landed = new Map<string, string>()
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim())
    if (match) landed.set(match[2], match[1])
  }
  return landed
}

export function formatLock(landed: Map<string, string>, header: string) {
  const names = [...landed.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
  return header + names.map((name) => `${landed.get(name)}  ${name}\n`).join('')
}

/**
 * Every problem of a migrations folder: a landed file (in `landed`) must be
 * byte for byte what landed; any other file must follow the rules.
 */
export function lintMigrations(files: MigrationFile[], landed: Map<string, string>) {
  const problems: Problem[] = []
  const present = new Set(files.map((file) => file.name))
  for (const [name] of landed) {
    if (!present.has(name))
      problems.push({
        file: name,
        rule: 'landed-removed',
        message: 'a landed migration was removed (databases that ran it keep its changes)',
      })
  }
  for (const file of files) {
    const hash = landed.get(file.name)
    if (hash === undefined) problems.push(...checkMigration(file))
    else if (hash !== hashOf(file.source))
      problems.push({
        file: file.name,
        rule: 'landed-edited',
        message:
          'a landed migration was edited: a database that already ran it never sees the change; write a new migration',
      })
  }
  return problems
}

/** The rules for a migration added after the lint landed. */
export function checkMigration(file: MigrationFile): Problem[] {
  const code = withoutComments(file.source)
  const problems: Problem[] = []
  const refuse = (rule: Rule, message: string) => problems.push({ file: file.name, rule, message })

  if (/\block\s+table\b/i.test(code))
    refuse('lock-table', '`lock table` queues every writer of the table behind the migration')

  if (
    /\balter\s+column\s+("[^"]+"|\w+)\s+(set\s+data\s+)?type\b/i.test(code) ||
    /\.alter\s*\(/.test(code)
  )
    refuse(
      'column-type',
      'a column type change rewrites the table under ACCESS EXCLUSIVE and breaks the running build: add a column instead'
    )

  for (const index of indexesOn(code)) {
    if (BUSY_TABLES.includes(index.table) && !index.concurrently)
      refuse(
        'index-not-concurrent',
        `an index on ${index.table} without \`concurrently\` blocks its writes while it builds (${index.by})`
      )
  }

  const transactional = !/static\s+disableTransactions\s*=\s*true/.test(code)
  if (transactional && /\bcreate\s+(unique\s+)?index\s+concurrently\b/i.test(code))
    refuse(
      'concurrently-in-transaction',
      '`create index concurrently` cannot run in a transaction: set `static disableTransactions = true`'
    )
  if (!transactional && /\bset\s+local\s+(lock|statement)_timeout\b/i.test(code))
    refuse(
      'set-local-outside-transaction',
      '`set local` has no effect outside a transaction (disableTransactions): use `set`, then `reset` at the end'
    )

  const up = methodBody(code, 'up') ?? ''
  const firstWork = firstStatement(up)
  for (const [rule, name] of [
    ['lock-timeout', 'lock_timeout'],
    ['statement-timeout', 'statement_timeout'],
  ] as const) {
    const setting = new RegExp(
      `\\bset\\s+(?:local\\s+)?${name}\\s*(?:=|to)\\s*'?([^'"\`;\\s]+)`,
      'i'
    ).exec(up)
    if (!setting || (firstWork !== -1 && setting.index > firstWork)) {
      refuse(rule, `up() must set ${name} before its first statement`)
      continue
    }
    const ms = milliseconds(setting[1])
    if (ms === null || ms <= 0)
      refuse(rule, `${name} must be a positive duration, not ${setting[1]}`)
    else if (rule === 'lock-timeout' && ms > MAX_LOCK_TIMEOUT_MS)
      refuse(
        rule,
        `lock_timeout ${setting[1]} is longer than 3s: writers queue behind it that long`
      )
  }
  return problems
}

/** What each statement of a migration locks, in source order (up() only). */
export function locksOf(source: string): Lock[] {
  // A function's body ($$ … $$) runs later, not while migrating.
  const code = withoutComments(source).replace(/\$\$[\s\S]*?\$\$/g, '$$$$')
  const up = methodBody(code, 'up') ?? code
  const locks: Array<Lock & { at: number }> = []
  const add = (at: number, table: string, level: string, by: string) =>
    locks.push({ at, table: unquote(table), level, by })
  const name = String.raw`((?:"[^"]+"|\w+)(?:\.(?:"[^"]+"|\w+))?)`

  for (const match of up.matchAll(/\.createTable\s*\(\s*['"`](\w+)/g))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'createTable (new table, nobody waits)')
  for (const match of up.matchAll(
    new RegExp(String.raw`\bcreate\s+table\s+(?:if\s+not\s+exists\s+)?${name}`, 'gi')
  ))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'create table (new table, nobody waits)')
  for (const match of up.matchAll(/\.(?:alterTable|table)\s*\(\s*['"`](\w+)/g))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'alterTable (brief, unless it rewrites)')
  for (const match of up.matchAll(
    new RegExp(String.raw`\balter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?${name}`, 'gi')
  ))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'alter table (brief, unless it rewrites)')
  for (const match of up.matchAll(
    /\.(?:dropTable|dropTableIfExists|renameTable)\s*\(\s*['"`](\w+)/g
  ))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'drop/rename table')
  for (const match of up.matchAll(
    new RegExp(String.raw`\bdrop\s+table\s+(?:if\s+exists\s+)?${name}`, 'gi')
  ))
    add(match.index, match[1], 'ACCESS EXCLUSIVE', 'drop table')
  for (const index of indexesOn(up))
    add(
      index.at,
      index.table,
      index.concurrently ? 'SHARE UPDATE EXCLUSIVE' : 'SHARE',
      index.concurrently
        ? `${index.by} (writes go on)`
        : `${index.by} (blocks writes while it builds)`
    )
  for (const match of up.matchAll(
    new RegExp(String.raw`\bdrop\s+index\s+(concurrently\s+)?(?:if\s+exists\s+)?${name}`, 'gi')
  ))
    add(
      match.index,
      `index ${match[2]}`,
      match[1] ? 'SHARE UPDATE EXCLUSIVE' : 'ACCESS EXCLUSIVE',
      match[1] ? 'drop index concurrently (on its table)' : 'drop index (on its table)'
    )
  for (const match of up.matchAll(
    new RegExp(String.raw`\block\s+table\s+(?:only\s+)?${name}(?:\s+in\s+([a-z ]+?)\s+mode)?`, 'gi')
  ))
    add(match.index, match[1], (match[2] ?? 'access exclusive').toUpperCase(), 'lock table')
  for (const match of up.matchAll(
    new RegExp(
      String.raw`\bcreate\s+(?:or\s+replace\s+)?(?:constraint\s+)?trigger\s+\w+[\s\S]*?\bon\s+${name}`,
      'gi'
    )
  ))
    add(match.index, match[1], 'SHARE ROW EXCLUSIVE', 'create trigger')
  for (const match of up.matchAll(
    /\.inTable\s*\(\s*['"`](\w+)|\.references\s*\(\s*['"`](\w+)\.\w+/g
  ))
    add(match.index, match[1] ?? match[2], 'SHARE ROW EXCLUSIVE', 'foreign key (referenced table)')
  for (const match of up.matchAll(new RegExp(String.raw`\breferences\s+${name}\s*\(`, 'gi')))
    add(match.index, match[1], 'SHARE ROW EXCLUSIVE', 'foreign key (referenced table)')
  for (const match of up.matchAll(
    new RegExp(String.raw`\b(?:insert\s+into|update|delete\s+from)\s+${name}(?=\s)`, 'gi')
  )) {
    // `do update set` of an upsert and `for update` are not statements of their own.
    if (/\b(do|for|of)\s+$/i.test(up.slice(Math.max(0, match.index - 4), match.index))) continue
    if (NOT_TABLES.has(match[1].toLowerCase())) continue
    add(
      match.index,
      match[1],
      'ROW EXCLUSIVE',
      'rows written (waits for no reader, only for locks above)'
    )
  }
  const seen = new Set<string>()
  return locks
    .sort((a, b) => a.at - b.at)
    .map(({ table, level, by }) => ({ table, level, by }))
    .filter((lock) => {
      const key = `${lock.table}|${lock.level}|${lock.by}`
      return !seen.has(key) && Boolean(seen.add(key))
    })
}

/** Words after `update` in a trigger or foreign key (`update of col`, `on update cascade`). */
const NOT_TABLES = new Set(['of', 'on', 'or', 'set', 'cascade', 'restrict'])

interface Index {
  at: number
  table: string
  concurrently: boolean
  by: string
}

/** The indexes a piece of migration builds: raw `create index`, and knex's in alterTable. */
function indexesOn(code: string): Index[] {
  const found: Index[] = []
  const raw =
    /\bcreate\s+(unique\s+)?index\s+(concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:(?:"[^"]+"|\w+)\s+)?on\s+(?:only\s+)?((?:"[^"]+"|\w+)(?:\.(?:"[^"]+"|\w+))?)/gi
  for (const match of code.matchAll(raw)) {
    const table = unquote(match[3]).split('.').pop()!
    found.push({
      at: match.index,
      table,
      concurrently: Boolean(match[2]),
      by: match[2] ? 'create index concurrently' : 'create index',
    })
  }
  // knex builds these with a plain `create index` / `add constraint … unique`.
  for (const match of code.matchAll(/\.(?:alterTable|table)\s*\(\s*['"`](\w+)['"`]\s*,/g)) {
    const body = blockAfter(code, match.index + match[0].length)
    if (body && /\.(?:index|unique|primary)\s*\(/.test(body))
      found.push({
        at: match.index,
        table: match[1],
        concurrently: false,
        by: 'knex index in alterTable',
      })
  }
  return found
}

const unquote = (name: string) => name.replace(/"/g, '')

/** Duration of a PostgreSQL setting in ms (`3s`, `3000`, `500ms`, `1min`), or null. */
function milliseconds(value: string) {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|min|h)?$/i.exec(value.trim())
  if (!match) return null
  const factor = { ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[
    (match[2] ?? 'ms').toLowerCase() as 'ms'
  ]
  return Number(match[1]) * factor
}

/** Where the first schema/db call that is not a `set`/`reset` starts, or -1. */
function firstStatement(body: string) {
  for (const match of body.matchAll(/this\.(?:schema|db)\.\w+\s*\(|this\.defer\s*\(/g)) {
    const rest = body.slice(match.index + match[0].length)
    if (/^\s*['"`]\s*(?:set|reset)\s/i.test(rest)) continue
    return match.index
  }
  return -1
}

/** The body of `async up() { … }` (or down), or null. */
function methodBody(code: string, method: string) {
  const start = new RegExp(String.raw`(?:async\s+)?\b${method}\s*\(\s*\)\s*(?::\s*[^{]+)?\{`).exec(
    code
  )
  if (!start) return null
  return blockAfter(code, start.index + start[0].length - 1)
}

/** The text of the `{ … }` block opening at or after `from` (strings skipped), or null. */
function blockAfter(code: string, from: number) {
  const open = code.indexOf('{', from)
  if (open === -1) return null
  let depth = 0
  for (let i = open; i < code.length; i++) {
    const char = code[i]
    if (char === '"' || char === "'" || char === '`') {
      i = skipString(code, i)
      continue
    }
    if (char === '{') depth++
    else if (char === '}' && --depth === 0) return code.slice(open + 1, i)
  }
  return null
}

function skipString(code: string, start: number) {
  const quote = code[start]
  for (let i = start + 1; i < code.length; i++) {
    if (code[i] === '\\') i++
    else if (code[i] === quote) return i
  }
  return code.length
}

/** The source without comments (a docblock may well say "no `lock table`"); strings kept. */
export function withoutComments(source: string) {
  let out = ''
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '"' || char === "'" || char === '`') {
      const end = skipString(source, i)
      out += source.slice(i, end + 1)
      i = end
    } else if (char === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2)
      i = end === -1 ? source.length : end + 1
    } else if (char === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i)
      i = end === -1 ? source.length : end - 1
    } else out += char
  }
  return out
}

/** Whom a lock level keeps waiting while it is held. */
export function blockedBy(level: string) {
  switch (level) {
    case 'ACCESS EXCLUSIVE':
      return 'reads and writes'
    case 'EXCLUSIVE':
    case 'SHARE ROW EXCLUSIVE':
    case 'SHARE':
      return 'writes'
    case 'SHARE UPDATE EXCLUSIVE':
      return 'schema changes and vacuum only'
    default:
      return 'only the stronger locks above'
  }
}

/** A migration that runs outside a transaction (`static disableTransactions = true`). */
export const outsideTransaction = (source: string) =>
  /static\s+disableTransactions\s*=\s*true/.test(withoutComments(source))
