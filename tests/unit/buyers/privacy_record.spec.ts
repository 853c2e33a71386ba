/*
 * docs/privacy.md classifies every column of every table that can hold a
 * buyer's data (docs/design.md §16). This reads the migrations and fails when
 * one of those tables has a column the record does not list — a new column
 * must be classified (personal or none) before it lands. Proven on a synthetic
 * migration and record.
 */
import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'

/** The record: `### \`table\`` headings, each followed by rows `| \`column\` | personal|none | … |`. */
export function recordedColumns(markdown: string): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>()
  let current: Map<string, string> | null = null
  for (const line of markdown.split('\n')) {
    const heading = /^###\s+`([a-z0-9_]+)`/.exec(line)
    if (heading) {
      current = new Map()
      tables.set(heading[1], current)
      continue
    }
    if (/^#{1,3}\s/.test(line)) current = null
    const row = /^\|\s*`([a-z0-9_]+)`\s*\|\s*([a-z]+)\s*\|/.exec(line)
    if (row && current) current.set(row[1], row[2])
  }
  return tables
}

/** Column-making calls of knex's table builder (not indexes or keys over existing columns). */
const NOT_COLUMNS = new Set([
  'index',
  'unique',
  'primary',
  'foreign',
  'dropColumn',
  'dropColumns',
  'dropIndex',
  'dropUnique',
  'dropPrimary',
  'dropForeign',
  'renameColumn',
  'check',
])

/** Columns each migration source adds, by table: builder calls and raw `alter table … add column`. */
export function migratedColumns(sources: string[]): Map<string, Set<string>> {
  const tables = new Map<string, Set<string>>()
  const add = (table: string, column: string) => {
    if (!tables.has(table)) tables.set(table, new Set())
    tables.get(table)!.add(column)
  }
  for (const source of sources) {
    const blocks = source.split(/this\.schema\.(?=createTable|alterTable|raw)/)
    for (const block of blocks) {
      const builder = /^(?:createTable|alterTable)\(\s*'([a-z0-9_]+)'/.exec(block)
      if (builder) {
        for (const call of block.matchAll(/\btable\.(\w+)\(\s*'([a-z0-9_]+)'/g))
          if (!NOT_COLUMNS.has(call[1])) add(builder[1], call[2])
        for (const call of block.matchAll(/\btable\.timestamps\(/g)) {
          void call
          add(builder[1], 'created_at')
          add(builder[1], 'updated_at')
        }
      }
      for (const raw of block.matchAll(
        /alter table\s+([a-z0-9_]+)\s+add column\s+(?:if not exists\s+)?([a-z0-9_]+)/gi
      ))
        add(raw[1], raw[2])
    }
  }
  return tables
}

/** `table.column` of recorded tables that the record does not classify. */
export function unclassified(markdown: string, sources: string[]): string[] {
  const record = recordedColumns(markdown)
  const missing: string[] = []
  for (const [table, columns] of migratedColumns(sources)) {
    const known = record.get(table)
    if (!known) continue
    for (const column of columns) if (!known.has(column)) missing.push(`${table}.${column}`)
  }
  return missing
}

test.group('Privacy record (docs/privacy.md) against the migrations', () => {
  test('every column of every recorded table is classified', async ({ assert }) => {
    const directory = app.makePath('database/migrations')
    const names = (await readdir(directory)).filter((name) => name.endsWith('.ts')).sort()
    const sources = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8')))
    const markdown = await readFile(app.makePath('docs/privacy.md'), 'utf8')
    const record = recordedColumns(markdown)
    // The record names the tables that hold a buyer's data, and classifies every column it lists.
    for (const table of [
      'inquiries',
      'deliveries',
      'delivery_attempts',
      'app_events',
      'idempotency_keys',
    ])
      assert.isTrue(record.has(table), `${table} is in the record`)
    for (const [table, columns] of record)
      for (const [column, kind] of columns)
        assert.include(['personal', 'none'], kind, `${table}.${column}`)
    // What the migrations make of them is what the record lists.
    const migrated = migratedColumns(sources)
    assert.includeMembers(
      [...migrated.get('inquiries')!],
      ['email', 'audience_app_id', 'buyer_erased_at']
    )
    assert.deepEqual(unclassified(markdown, sources), [])
    // No recorded column is unknown to the migrations (a stale entry).
    for (const [table, columns] of record) {
      const made = migrated.get(table)
      if (!made) continue
      for (const column of columns.keys())
        assert.isTrue(made.has(column), `${table}.${column} exists`)
    }
  })

  test('a synthetic migration adding a column the record does not list is caught', ({ assert }) => {
    const markdown = [
      '### `inquiries`',
      '| column | personal | why | kept |',
      '|---|---|---|---|',
      '| `id` | none | key | ever |',
      '| `email` | personal | Email | until suppressed |',
      '## Elsewhere',
      '| `not_a_column` | none | outside a table section | - |',
    ].join('\n')
    const create = `this.schema.createTable('inquiries', (table) => {
      table.bigIncrements('id')
      table.string('email', 254).nullable()
      table.index(['email'])
    })`
    const later = `this.schema.alterTable('inquiries', (table) => {
      table.string('whatsapp', 30).nullable()
    })
    this.schema.raw('alter table inquiries add column nickname text')
    this.schema.createTable('unrelated', (table) => { table.string('secret') })`
    assert.deepEqual(unclassified(markdown, [create]), [])
    assert.sameMembers(unclassified(markdown, [create, later]), [
      'inquiries.whatsapp',
      'inquiries.nickname',
    ])
    assert.isFalse(recordedColumns(markdown).get('inquiries')!.has('not_a_column'))
  })
})
