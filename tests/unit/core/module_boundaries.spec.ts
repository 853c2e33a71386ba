/*
 * Module boundaries (docs/architecture.md), read from the sources: core imports
 * no feature module, the modules import each other without a cycle, and a
 * module uses another's services, never its controllers or models.
 */
import { test } from '@japa/runner'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  boundaryViolations,
  crossImports,
  findCycle,
  moduleGraph,
  moduleOf,
  readSources,
  sqlOutsideStores,
} from '#tests/helpers/module_graph'

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** The sources of app/, read once for the tests of the real tree. */
let sources: ReturnType<typeof readSources> | undefined
const appSources = () => (sources ??= readSources(root))

/** Writes `tree` (path → source) under tmp/<name>, removed after the test; returns its root. */
async function writeTree(
  name: string,
  tree: Record<string, string>,
  cleanup: (fn: () => Promise<void>) => void
) {
  const fixture = posix.join(root, 'tmp', name)
  cleanup(() => rm(fixture, { recursive: true, force: true }))
  for (const [path, source] of Object.entries(tree)) {
    await mkdir(posix.dirname(posix.join(fixture, path)), { recursive: true })
    await writeFile(posix.join(fixture, path), source)
  }
  return fixture
}

test.group('Module boundaries', () => {
  test('app/: core imports no module, no cycle, no foreign controllers or models', async ({
    assert,
  }) => {
    const files = await appSources()
    assert.isAbove(files.length, 100)
    const imports = crossImports(files)
    // The graph is real: the known dependencies are seen.
    assert.isTrue(moduleGraph(imports).get('listings')?.has('agencies'))
    assert.isTrue(moduleGraph(imports).get('buyers')?.has('leads'))

    const violations = boundaryViolations(imports)
    assert.deepEqual(violations.coreImportsModule, [], 'app/core imports a feature module')
    assert.isNull(violations.cycle, `import cycle between modules:\n${violations.cycle}`)
    assert.deepEqual(violations.internals, [], "a module imports another's controllers or models")

    // adonisrc.ts lists each module's provider after those it imports: their boot() registers
    // hooks, which run in that order. Core's provider is `#core/core_provider`.
    const listed = [
      ...(await readFile(posix.join(root, 'adonisrc.ts'), 'utf8')).matchAll(
        /import\('#(\w+)\/(?:core_)?provider'\)/g
      ),
    ].map((match) => match[1])
    assert.sameMembers([...new Set(listed)], [...new Set(files.map((file) => moduleOf(file.path)))])
    for (const edge of imports)
      assert.isBelow(
        listed.indexOf(edge.to),
        listed.indexOf(edge.from),
        `${edge.file} imports ${edge.specifier}`
      )
  })

  test('a synthetic tree that breaks every rule is caught', async ({ assert, cleanup }) => {
    const tree: Record<string, string> = {
      'app/core/commands/start.ts': `// import '#apps/in_a_comment'\nexport async function run() {\n  const { default: App } = await import('#apps/models/app')\n}`,
      'app/core/http/auth.ts': `import type App from '../../apps/models/app.js'`,
      'app/apps/models/app.ts': `export default class App {}`,
      'app/agencies/services/detach.ts': `import Reassign from '#listings/services/reassign'`,
      'app/listings/services/reassign.ts': `export { Directory } from '#leads/services/directory'`,
      'app/leads/services/directory.ts': `import Agency from '#agencies/models/agency'`,
      'app/agencies/models/agency.ts': `import '#core/settings'`,
      'app/catalog/services/place.ts': `import { x } from '#catalog/services/other'\nimport env from '#start/env'`,
    }
    const fixture = await writeTree('module_boundaries_fixture', tree, cleanup)

    const violations = boundaryViolations(crossImports(await readSources(fixture)))
    assert.deepEqual(violations.coreImportsModule.sort(), [
      'app/core/commands/start.ts imports #apps/models/app',
      'app/core/http/auth.ts imports ../../apps/models/app.js',
    ])
    assert.equal(
      violations.cycle,
      [
        'agencies → listings (app/agencies/services/detach.ts imports #listings/services/reassign)',
        'listings → leads (app/listings/services/reassign.ts imports #leads/services/directory)',
        'leads → agencies (app/leads/services/directory.ts imports #agencies/models/agency)',
      ].join('\n')
    )
    assert.sameMembers(violations.internals, [
      'app/core/commands/start.ts imports #apps/models/app',
      'app/core/http/auth.ts imports ../../apps/models/app.js',
      'app/leads/services/directory.ts imports #agencies/models/agency',
    ])
  })

  test('app/: no SQL outside stores, models and app/core/database', async ({ assert }) => {
    const found = sqlOutsideStores(await appSources())
    assert.deepEqual(
      found,
      [],
      'SQL outside a store (tests/helpers/module_graph.ts, sqlOutsideStores)'
    )
  })

  test('a synthetic tree with SQL outside its stores is caught, clause by clause', async ({
    assert,
    cleanup,
  }) => {
    const fixture = await writeTree(
      'sql_outside_stores_fixture',
      {
        // Caught: each clause once.
        'app/leads/services/receive.ts': `import db from '@adonisjs/lucid/services/db'`,
        'app/leads/jobs/send.ts': `import { poolQuery } from '#core/database/pool_query'`,
        'app/leads/controllers/inquiries.ts': `import Inquiry from '#leads/models/inquiry'`,
        'app/leads/services/resend.ts': `export { default } from '../models/inquiry.js'`,
        'app/core/commands/prune.ts': `const { default: Visit } = await import('#buyers/models/visit')`,
        'app/agencies/services/suspend.ts': `import { poolQuery } from '../../core/database/pool_query.js'`,
        'app/listings/services/archive.ts': `export const run = (trx: any) => trx.rawQuery('select 1')`,
        'app/listings/services/count.ts': `export const run = (db: any) => db.connection().knexRawQuery('x')`,
        'app/listings/services/list.ts': `export const run = (q: any) => q.knexQuery().select('*')`,
        // Pass: type-only imports, SQL in comments and strings, and the homes of SQL.
        'app/leads/transformers/inquiry.ts': `import type Inquiry from '#leads/models/inquiry'\nimport type { Tx } from '#core/database/unit_of_work'\n// db.rawQuery('select 1')\nexport const text = '.knexQuery('`,
        'app/leads/stores/inquiry_store.ts': `import db from '@adonisjs/lucid/services/db'\nimport Inquiry from '#leads/models/inquiry'\nexport const one = () => db.rawQuery('select 1')`,
        'app/leads/models/inquiry.ts': `import Agency from '#agencies/models/agency'\nexport default class Inquiry {}`,
        'app/core/database/ping.ts': `import db from '@adonisjs/lucid/services/db'\nexport const ping = () => db.rawQuery('select 1')`,
        'app/core/stores/idempotency_store.ts': `import { poolQuery } from '#core/database/pool_query'`,
      },
      cleanup
    )
    assert.sameMembers(sqlOutsideStores(await readSources(fixture)), [
      'app/leads/services/receive.ts imports @adonisjs/lucid/services/db',
      'app/leads/jobs/send.ts imports #core/database/pool_query',
      'app/leads/controllers/inquiries.ts imports #leads/models/inquiry',
      'app/leads/services/resend.ts imports ../models/inquiry.js',
      'app/core/commands/prune.ts imports #buyers/models/visit',
      'app/agencies/services/suspend.ts imports ../../core/database/pool_query.js',
      'app/listings/services/archive.ts calls .rawQuery(',
      'app/listings/services/count.ts calls .knexRawQuery(',
      'app/listings/services/list.ts calls .knexQuery(',
    ])
  })

  test('findCycle: an acyclic graph has none; a self-contained loop is found', ({ assert }) => {
    const edge = (from: string, to: string) => ({
      from,
      to,
      target: 'services/x',
      file: `app/${from}/x.ts`,
      specifier: `#${to}/services/x`,
    })
    const acyclic = [edge('buyers', 'leads'), edge('leads', 'listings'), edge('buyers', 'listings')]
    assert.isNull(findCycle(moduleGraph(acyclic)))
    assert.deepEqual(findCycle(moduleGraph([...acyclic, edge('listings', 'buyers')])), [
      'buyers',
      'leads',
      'listings',
      'buyers',
    ])
  })
})
