/*
 * First boot (issue 13): `npm start` on an empty database loads the bundled
 * catalogue in bulk before it reports ready, and the bulk writes give exactly
 * what row-by-row upserts in input order gave (same rows, same ids). How long
 * it takes is measured in docs/performance.md (First boot), not asserted here.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SOURCES, argentinaPlaces, carJsonBrands, iso4217Currencies } from '#catalog/data/sources'
import ImportCatalog, {
  type CatalogData,
  type VersionInput,
} from '#catalog/services/import_catalog'
import { slug } from '#catalog/services/normalize'
import { freshDatabase } from '#tests/helpers/fresh_database'
import { until } from '#tests/helpers/until'
import { freePort } from '#tests/helpers/free_port'

type Started = { child: ChildProcess; output: () => string; exited: () => boolean }

/** `node ace start` (what `npm start` runs) on `databaseUrl`, as a newcomer would run it. */
async function start(databaseUrl: string, port: number, dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['ace.js', 'start'], {
    cwd: app.makePath(),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  let exited = false
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  child.on('exit', () => (exited = true))
  return { child, output: () => output, exited: () => exited }
}

async function ready(started: Started, port: number) {
  const status = await until(
    () =>
      fetch(`http://127.0.0.1:${port}/health/ready`)
        .then((response) => response.status)
        .catch(() => 0),
    (answer) => answer === 200 || started.exited(),
    240_000
  )
  if (status !== 200) throw new Error(`not ready (${status}):\n${started.output()}`)
}

async function stop(started: Started) {
  if (started.exited()) return
  const exit = new Promise((resolve) => started.child.once('exit', resolve))
  started.child.kill('SIGINT')
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 30_000)
  await exit
  clearTimeout(timer)
}

/** What the bundled sources hold, counted by natural key (docs/catalog_import.md), independently of the importer. */
async function bundledCounts() {
  const regions = await argentinaPlaces()
  const cities = new Set(
    regions.flatMap((region) =>
      (region.cities ?? []).map((city) => `${region.code}|${city.trim()}`)
    )
  )
  const brands = new Set<string>()
  const models = new Set<string>()
  const versions = new Set<string>()
  let modelEntries = 0
  for (const brand of await carJsonBrands()) {
    const brandKey = slug(brand.codename ?? brand.name.trim().slice(0, 100)).slice(0, 100)
    brands.add(brandKey)
    for (const model of brand.models ?? []) {
      modelEntries++
      const modelKey = `${brandKey}|${slug(model.codename ?? model.name.trim().slice(0, 100)).slice(0, 100)}`
      models.add(modelKey)
      for (const version of model.versions ?? []) {
        versions.add(
          `${modelKey}|${slug(version.codename ?? version.name.trim().slice(0, 150)).slice(0, 150)}|${version.year ?? null}`
        )
      }
    }
  }
  return {
    counts: {
      regions: regions.length,
      cities: cities.size,
      currencies: new Set(iso4217Currencies().map((currency) => currency.code)).size,
      brands: brands.size,
      vehicle_models: models.size,
      versions: versions.size,
    },
    modelEntries,
  }
}

test.group('First boot: npm start on an empty database', () => {
  test('/health/ready answers 200 only with the whole bundled catalogue in; a second start loads nothing', async ({
    assert,
  }) => {
    const fresh = await freshDatabase('first_boot')
    const dataDir = await mkdtemp(join(tmpdir(), 'first-boot-'))
    const port = await freePort()
    const expected = await bundledCounts()
    const counts = async () => {
      const result: Record<string, number> = {}
      for (const table of Object.keys(expected.counts)) {
        result[table] = Number((await fresh.client.from(table).count('* as n'))[0].n)
      }
      return result
    }
    let started: Started | null = null
    try {
      started = await start(fresh.url, port, dataDir)
      await ready(started, port)
      assert.deepEqual(await counts(), expected.counts, 'complete as soon as the service is ready')
      assert.include(
        started.output(),
        'Reference data catalog: loaded places, vehicles, currencies'
      )
      // The apps module's start step: a demo app whose token, printed once, works.
      assert.match(started.output(), /Demo app \d+ created/)
      const token = /dla_[A-Za-z0-9._-]+/.exec(started.output())?.[0]
      assert.exists(token, 'the demo token is printed')
      const entry = await fetch(`http://127.0.0.1:${port}/v3`, {
        headers: { Authorization: `Bearer ${token}` },
      })
      assert.equal(entry.status, 200)

      // Same ids as row-by-row inserts: 1..n in input order, every model entry using one up.
      const versions = await fresh.client
        .from('versions')
        .min('id as first')
        .max('id as last')
        .first()
      assert.deepEqual([versions.first, versions.last], [1, expected.counts.versions])
      const models = await fresh.client.from('vehicle_models').max('id as last').first()
      assert.equal(models.last, expected.modelEntries)
      const unfolded = await fresh.client
        .from('versions')
        .whereRaw(`search <> catalog_fold(name || ' ' || codename)`)
        .count('* as n')
      assert.equal(
        Number(unfolded[0].n),
        0,
        'every version searchable by its folded name and codename'
      )
      const sources = await fresh.client
        .from('catalog_sources')
        .orderBy('name')
        .select('name', 'version')
      assert.sameDeepMembers(
        sources,
        Object.values(SOURCES).map(({ name, version }) => ({ name, version }))
      )
      const revision = await fresh.client.from('catalog_state').select('revision').first()
      assert.equal(Number(revision.revision), 4, 'one import per bundled part')

      await stop(started)
      started = await start(fresh.url, port, dataDir)
      await ready(started, port)
      assert.include(started.output(), 'Reference data catalog: already loaded')
      assert.include(started.output(), 'Apps exist already. A new token: npm run ace -- app:token')
      assert.notMatch(started.output(), /dla_/, 'no second demo app, no token printed')
      assert.deepEqual(await counts(), expected.counts)
      assert.deepEqual(
        await fresh.client.from('catalog_state').select('revision').first(),
        revision,
        'nothing was imported'
      )
    } finally {
      if (started) await stop(started)
      await fresh.drop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }).timeout(600_000)
})

const version = (
  name: string,
  year: number | null,
  extra: Partial<VersionInput> = {}
): VersionInput => ({ name, year, ...extra })

test.group('Catalogue import: bulk writes, row-by-row results', (group) => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>
  group.setup(async () => {
    fresh = await freshDatabase('catalog_bulk')
    await fresh.migrate()
    return () => fresh.drop()
  })

  test('a repeated key keeps its first id and takes the last values; every proposal uses an id up', async ({
    assert,
  }) => {
    const data: CatalogData = {
      regions: [
        { code: 'zz-a', name: ' Zona A ', cities: ['Uno', 'Dos', 'Uno', ' Dos '] },
        { code: 'ZZ-B', name: 'Zona B', cities: ['Tres'] },
        { code: 'ZZ-A', name: 'Zona A bis', cities: ['Uno', 'Cuatro'] },
      ],
      currencies: [{ code: 'zzz', name: 'Zeta' }],
      brands: [
        {
          name: 'Equipo Uno',
          models: [
            {
              name: 'Alfa',
              versions: [
                version('1.0 Base', 2019, { power: 70 }),
                version('1.0 Base', 2020, { power: 70 }),
                version('1.0 Base', 2021, { power: 70 }),
                version('1.0 Base', 2020, { power: 75 }), // same model: folded before proposing, no id used
                version('1.0 Base', null),
              ],
            },
            {
              name: 'ALFA', // the same codename: the same model row
              versions: [
                version('1.0 Base', 2021, { power: 80 }), // proposed again: uses id 5, updates id 3
                version('1.0 Base', 2022, { power: 70, newMarket: true }),
              ],
            },
          ],
        },
        {
          name: 'Otra Marca',
          models: [
            {
              name: 'Beta',
              versions: [
                ...[2015, 2016, 2017, 2018].map((year) =>
                  version('1.6 Full', year, { power: 110, propulsion: 'gasoline' })
                ),
                version('1.6 Full', 2019, { power: 110, propulsion: 'gasoline', newMarket: true }),
              ],
            },
          ],
        },
      ],
    }
    const importer = await app.container.make(ImportCatalog)
    const summary = await importer.execute(data, undefined, { client: fresh.client })
    assert.deepEqual(summary, {
      regions: 3,
      cities: 5,
      currencies: 1,
      brands: 2,
      models: 3,
      versions: 11,
    })

    const rows = (table: string, columns: string[]) =>
      fresh.client.from(table).orderBy(columns[0]).select(columns)
    const sequence = async (table: string) =>
      Number(
        (await fresh.client.rawQuery(`select last_value from ${table}_id_seq`)).rows[0].last_value
      )
    assert.deepEqual(await rows('regions', ['id', 'code', 'country_code', 'name', 'search']), [
      { id: 1, code: 'ZZ-A', country_code: 'ZZ', name: 'Zona A bis', search: 'zona a bis zz-a' },
      { id: 2, code: 'ZZ-B', country_code: 'ZZ', name: 'Zona B', search: 'zona b zz-b' },
    ])
    assert.deepEqual(await rows('cities', ['id', 'region_id', 'name']), [
      { id: 1, region_id: 1, name: 'Uno' },
      { id: 2, region_id: 1, name: 'Dos' },
      { id: 3, region_id: 2, name: 'Tres' },
      { id: 5, region_id: 1, name: 'Cuatro' },
    ])
    assert.deepEqual(await rows('currencies', ['code', 'name']), [{ code: 'ZZZ', name: 'Zeta' }])
    assert.deepEqual(
      await rows('brands', ['id', 'codename', 'name', 'codenames', 'new_market', 'search']),
      [
        {
          id: 1,
          codename: 'equipo-uno',
          name: 'Equipo Uno',
          codenames: ['equipo-uno'],
          new_market: true,
          search: 'equipo uno equipo-uno',
        },
        {
          id: 2,
          codename: 'otra-marca',
          name: 'Otra Marca',
          codenames: ['otra-marca'],
          new_market: true,
          search: 'otra marca otra-marca',
        },
      ]
    )
    assert.deepEqual(
      await rows('vehicle_models', ['id', 'brand_id', 'codename', 'name', 'new_market']),
      [
        { id: 1, brand_id: 1, codename: 'alfa', name: 'ALFA', new_market: true },
        { id: 3, brand_id: 2, codename: 'beta', name: 'Beta', new_market: true },
      ]
    )
    const versionColumns = [
      'id',
      'model_id',
      'codename',
      'year',
      'power',
      'propulsion',
      'new_market',
      'search',
    ]
    const base = { codename: '1-0-base', propulsion: null, search: '1.0 base 1-0-base' }
    const full = {
      model_id: 3,
      codename: '1-6-full',
      power: 110,
      propulsion: 'Nafta',
      search: '1.6 full 1-6-full',
    }
    assert.deepEqual(await rows('versions', versionColumns), [
      { id: 1, model_id: 1, ...base, year: 2019, power: 70, new_market: false },
      { id: 2, model_id: 1, ...base, year: 2020, power: 75, new_market: false },
      { id: 3, model_id: 1, ...base, year: 2021, power: 80, new_market: false },
      { id: 4, model_id: 1, ...base, year: null, power: null, new_market: false },
      { id: 6, model_id: 1, ...base, year: 2022, power: 70, new_market: true },
      ...[2015, 2016, 2017, 2018].map((year, index) => ({
        id: 7 + index,
        ...full,
        year,
        new_market: false,
      })),
      { id: 11, ...full, year: 2019, new_market: true },
    ])
    assert.deepEqual(
      [
        await sequence('regions'),
        await sequence('cities'),
        await sequence('brands'),
        await sequence('vehicle_models'),
        await sequence('versions'),
      ],
      [3, 5, 2, 3, 11]
    )

    // Again into filled tables (upserts): existing rows keep their ids, new ones follow the used-up ones.
    await importer.execute(
      {
        brands: [
          {
            name: 'EQUIPO UNO',
            models: [
              {
                name: 'Alfa',
                versions: [version('1.0 Base', 2019, { power: 90 }), version('1.0 Base', 2023)],
              },
            ],
          },
        ],
      },
      undefined,
      { client: fresh.client }
    )
    assert.deepEqual(await rows('brands', ['id', 'name', 'new_market']), [
      { id: 1, name: 'EQUIPO UNO', new_market: false },
      { id: 2, name: 'Otra Marca', new_market: true },
    ])
    assert.deepEqual(
      (await rows('vehicle_models', ['id', 'name'])).map((row) => [row.id, row.name]),
      [
        [1, 'Alfa'],
        [3, 'Beta'],
      ]
    )
    const alfa = await fresh.client
      .from('versions')
      .where('model_id', 1)
      .orderBy('id')
      .select('id', 'year', 'power')
    assert.deepEqual(alfa, [
      { id: 1, year: 2019, power: 90 },
      { id: 2, year: 2020, power: 75 },
      { id: 3, year: 2021, power: 80 },
      { id: 4, year: null, power: null },
      { id: 6, year: 2022, power: 70 },
      { id: 13, year: 2023, power: null },
    ])
    assert.equal(await sequence('versions'), 13)
  })
})
