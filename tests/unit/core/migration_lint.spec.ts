import { test } from '@japa/runner'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import {
  checkMigration,
  hashOf,
  lintMigrations,
  locksOf,
  parseLock,
  type Rule,
} from '#database/migration_rules'

/** A migration as the rules want it; each seeded bad one differs from its fixed twin by the rule's point. */
const migration = (
  up: string,
  { transactional = true } = {}
) => `import { BaseSchema } from '@adonisjs/lucid/schema'

/** Seeded for the lint's tests: says "lock table" in a comment, which is no statement. */
export default class extends BaseSchema {
${transactional ? '' : '  static disableTransactions = true\n'}
  async up() {
${up}
  }

  async down() {
    this.schema.raw('drop table if exists seeded')
  }
}
`
const TIMEOUTS = `    this.schema.raw("set local lock_timeout = '3s'")
    this.schema.raw("set local statement_timeout = '30s'")`

const rulesOf = (source: string) =>
  checkMigration({ name: '0999_seeded.ts', source }).map((problem) => problem.rule)

/** The bad file breaks exactly `rule`; the fixed one breaks nothing. */
function provesRule(assert: any, rule: Rule, bad: string, fixed: string) {
  assert.deepEqual(rulesOf(bad), [rule])
  assert.deepEqual(rulesOf(fixed), [])
}

test.group('lint:migrations — rules for a new migration', () => {
  test('lock table is refused; the same work without it passes', ({ assert }) => {
    provesRule(
      assert,
      'lock-table',
      migration(`${TIMEOUTS}
    this.schema.raw('lock table inquiries in share row exclusive mode')
    this.schema.raw('alter table inquiries add column seeded text')`),
      migration(`${TIMEOUTS}
    this.schema.raw('alter table inquiries add column seeded text')`)
    )
  })

  test('a column type change is refused, raw or knex .alter(); a new column passes', ({
    assert,
  }) => {
    const fixed = migration(`${TIMEOUTS}
    this.schema.alterTable('listings', (table) => {
      table.bigInteger('mileage_big').nullable()
    })`)
    provesRule(
      assert,
      'column-type',
      migration(`${TIMEOUTS}
    this.schema.raw('alter table listings alter column mileage type bigint')`),
      fixed
    )
    provesRule(
      assert,
      'column-type',
      migration(`${TIMEOUTS}
    this.schema.alterTable('listings', (table) => {
      table.bigInteger('mileage').alter()
    })`),
      fixed
    )
    assert.deepEqual(
      rulesOf(
        migration(`${TIMEOUTS}
    this.schema.raw('alter table listings alter column mileage set data type bigint')`)
      ),
      ['column-type']
    )
  })

  test('a plain index on a busy table is refused (raw and knex); concurrently passes', ({
    assert,
  }) => {
    const concurrent = migration(
      `    this.schema.raw("set lock_timeout = '3s'")
    this.schema.raw("set statement_timeout = '30min'")
    this.schema.raw('create index concurrently if not exists inquiries_seeded on public.inquiries (email)')
    this.schema.raw('reset statement_timeout')
    this.schema.raw('reset lock_timeout')`,
      { transactional: false }
    )
    for (const table of ['listings', 'inquiries', 'deliveries', 'app_events']) {
      provesRule(
        assert,
        'index-not-concurrent',
        migration(`${TIMEOUTS}
    this.schema.raw('create unique index seeded_idx on ${table} (id)')`),
        concurrent
      )
      provesRule(
        assert,
        'index-not-concurrent',
        migration(`${TIMEOUTS}
    this.schema.alterTable('${table}', (table) => {
      table.index(['id'], 'seeded_idx')
    })`),
        concurrent
      )
    }
    // A small table may take its index in the transaction.
    assert.deepEqual(
      rulesOf(
        migration(`${TIMEOUTS}
    this.schema.raw('create index seeded_idx on privacy_audit (id)')`)
      ),
      []
    )
  })

  test('a missing lock_timeout is refused, and one set after the first statement or over 3s', ({
    assert,
  }) => {
    const work = `    this.schema.alterTable('listing_syncs', (table) => {
      table.text('seeded').nullable()
    })`
    const fixed = migration(`${TIMEOUTS}\n${work}`)
    provesRule(
      assert,
      'lock-timeout',
      migration(`    this.schema.raw("set local statement_timeout = '30s'")\n${work}`),
      fixed
    )
    provesRule(
      assert,
      'lock-timeout',
      migration(`    this.schema.raw("set local statement_timeout = '30s'")
${work}
    this.schema.raw("set local lock_timeout = '3s'")`),
      fixed
    )
    // The edge: 3s (and 3000 ms) pass, 3001 ms and 0 do not.
    const withLock = (value: string) =>
      migration(`    this.schema.raw("set local lock_timeout = '${value}'")
    this.schema.raw("set local statement_timeout = '30s'")
${work}`)
    assert.deepEqual(rulesOf(withLock('3s')), [])
    assert.deepEqual(rulesOf(withLock('3000')), [])
    assert.deepEqual(rulesOf(withLock('3001ms')), ['lock-timeout'])
    assert.deepEqual(rulesOf(withLock('4s')), ['lock-timeout'])
    assert.deepEqual(rulesOf(withLock('0')), ['lock-timeout'])
  })

  test('a missing statement_timeout is refused', ({ assert }) => {
    const work = `    this.schema.raw('alter table listing_syncs add column seeded text')`
    provesRule(
      assert,
      'statement-timeout',
      migration(`    this.schema.raw("set local lock_timeout = '3s'")\n${work}`),
      migration(`${TIMEOUTS}\n${work}`)
    )
  })

  test('concurrently needs disableTransactions, and set local does nothing without a transaction', ({
    assert,
  }) => {
    const index = `    this.schema.raw('create index concurrently inquiries_seeded on inquiries (email)')`
    const plainSets = `    this.schema.raw("set lock_timeout = '3s'")
    this.schema.raw("set statement_timeout = '30min'")`
    provesRule(
      assert,
      'concurrently-in-transaction',
      migration(`${plainSets}\n${index}`),
      migration(`${plainSets}\n${index}`, { transactional: false })
    )
    provesRule(
      assert,
      'set-local-outside-transaction',
      migration(`${TIMEOUTS}\n${index}`, { transactional: false }),
      migration(`${plainSets}\n${index}`, { transactional: false })
    )
  })
})

test.group('lint:migrations — landed migrations', () => {
  const landedSource = migration(`${TIMEOUTS}
    this.schema.raw('alter table listing_syncs add column seeded text')`)
  const lock = new Map([['0999_seeded.ts', hashOf(landedSource)]])

  test('an edit to a landed migration is refused; the file as it landed passes', ({ assert }) => {
    const edited = landedSource.replace("'30s'", "'60s'")
    assert.deepEqual(
      lintMigrations([{ name: '0999_seeded.ts', source: edited }], lock).map((p) => p.rule),
      ['landed-edited']
    )
    assert.deepEqual(lintMigrations([{ name: '0999_seeded.ts', source: landedSource }], lock), [])
  })

  test('a landed migration that is gone is refused', ({ assert }) => {
    assert.deepEqual(
      lintMigrations([], lock).map((p) => p.rule),
      ['landed-removed']
    )
  })

  test('landed migrations are exempt from the rules; the same text as a new file is not', ({
    assert,
  }) => {
    const old = migration(`    this.schema.raw('lock table inquiries in share row exclusive mode')`)
    const landed = new Map([['0401_old.ts', hashOf(old)]])
    assert.deepEqual(lintMigrations([{ name: '0401_old.ts', source: old }], landed), [])
    assert.sameMembers(
      lintMigrations([{ name: '0999_new.ts', source: old }], new Map()).map((p) => p.rule),
      ['lock-table', 'lock-timeout', 'statement-timeout']
    )
  })

  test('every migration in database/migrations passes against database/migrations.lock', ({
    assert,
  }) => {
    const folder = app.makePath('database/migrations')
    const files = readdirSync(folder)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => ({ name, source: readFileSync(join(folder, name), 'utf8') }))
    const landed = parseLock(readFileSync(app.makePath('database/migrations.lock'), 'utf8'))
    // 0401 and 0402 (lock table, no lock_timeout) are landed, hence exempt.
    assert.isTrue(landed.has('0401_leads_inquiry_counts.ts'))
    assert.isTrue(landed.has('0402_leads_inquiry_count_stripes.ts'))
    assert.deepEqual(lintMigrations(files, landed), [])
  })
})

test.group('migration:check — what a migration locks', () => {
  test('alterTable, indexes plain and concurrent, lock table, triggers, and function bodies skipped', ({
    assert,
  }) => {
    const source = migration(`${TIMEOUTS}
    this.schema.alterTable('listing_syncs', (table) => {
      table.text('seeded').nullable()
    })
    this.schema.raw('create index seeded_a on privacy_audit (id)')
    this.schema.raw('create index concurrently seeded_b on inquiries (id)')
    this.schema.raw('lock table deliveries in share mode')
    this.schema.raw(\`create function seeded() returns trigger language plpgsql as $$
      begin update listings set revision = revision + 1; return null; end $$\`)
    this.schema.raw('create trigger seeded after insert on app_events for each row execute function seeded()')`)
    assert.deepEqual(
      locksOf(source).map((lock) => `${lock.table} ${lock.level}`),
      [
        'listing_syncs ACCESS EXCLUSIVE',
        'privacy_audit SHARE',
        'inquiries SHARE UPDATE EXCLUSIVE',
        'deliveries SHARE',
        'app_events SHARE ROW EXCLUSIVE',
      ]
    )
  })
})
