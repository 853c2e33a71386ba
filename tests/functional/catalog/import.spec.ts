import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import CatalogImport from '#catalog/commands/catalog_import'
import { createCaller } from '#tests/helpers/apps'

const fixture = (name: string) => app.makePath('tests/fixtures', name)

async function runImport(file: string) {
  const ace = await app.container.make('ace')
  ace.ui.switchMode('raw')
  const command = await ace.create(CatalogImport, [file])
  await command.exec()
  return command
}

async function counts() {
  const [regions, cities, currencies, brands, models, versions] = await Promise.all([
    db.from('regions').where('code', 'UY-MO').count('* as n'),
    db
      .from('cities')
      .join('regions', 'regions.id', 'cities.region_id')
      .where('regions.code', 'UY-MO')
      .count('* as n'),
    db.from('currencies').where('code', 'UYU').count('* as n'),
    db.from('brands').whereIn('name', ['Zanella', 'Agrale']).count('* as n'),
    db
      .from('vehicle_models')
      .join('brands', 'brands.id', 'vehicle_models.brand_id')
      .whereIn('brands.name', ['Zanella', 'Agrale'])
      .count('* as n'),
    db
      .from('versions')
      .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
      .join('brands', 'brands.id', 'vehicle_models.brand_id')
      .whereIn('brands.name', ['Zanella', 'Agrale'])
      .count('* as n'),
  ])
  return [regions, cities, currencies, brands, models, versions].map((rows) => Number(rows[0].n))
}

test.group('catalog:import FILE', () => {
  test('imports the JSON and CSV fixtures; running twice creates no duplicates', async ({
    assert,
  }) => {
    for (let run = 0; run < 2; run++) {
      const json = await runImport(fixture('catalog_import.json'))
      json.assertSucceeded()
      assert.isTrue(
        json.logger
          .getLogs()
          .some((log) =>
            log.message.includes(
              '1 regions, 3 cities, 1 currencies, 1 brands, 1 models, 2 versions'
            )
          ),
        'summary of the JSON file'
      )
      const csv = await runImport(fixture('catalog_import.csv'))
      csv.assertSucceeded()
      assert.deepEqual(await counts(), [1, 3, 1, 2, 2, 5], `after run ${run + 1}`)
    }
  })

  test('normalises value sets and body types; an import invalidates catalogue ETags', async ({
    assert,
    client,
  }) => {
    const { token } = await createCaller('catalog import reader')
    const listed = await client.get('/v3/marcas').bearerToken(token)
    const before = await db.from('catalog_state').select('revision').first()
    ;(await runImport(fixture('catalog_import.csv'))).assertSucceeded()
    const after = await db.from('catalog_state').select('revision').first()
    assert.isAbove(Number(after.revision), Number(before.revision))
    const again = await client
      .get('/v3/marcas')
      .bearerToken(token)
      .header('If-None-Match', listed.header('etag')!)
    again.assertStatus(200)
    assert.notEqual(again.header('etag'), listed.header('etag'))

    const rows = await db
      .from('versions')
      .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
      .where('vehicle_models.name', 'Marruá')
      .orderBy('versions.year')
      .select(
        'versions.name',
        'versions.year',
        'propulsion',
        'transmission',
        'body_type',
        'segment',
        'versions.new_market'
      )
    assert.deepEqual(
      rows.map((row) => [
        row.year,
        row.propulsion,
        row.transmission,
        row.body_type,
        row.segment,
        row.new_market,
      ]),
      [
        // No segment in the file: derived from the body type (issue 12: Segmento is never null).
        [2019, 'Diésel', 'Manual', 'Chasis', 'Utilitario', false],
        [2020, 'Diésel', 'Manual', 'Pick-up', 'Pick-up mediana', false],
        [2024, 'Diésel', 'Manual', 'Pick-up', 'Pick-up mediana', true],
      ]
    )

    const brands = await client.get('/v3/marcas?q=znl').bearerToken(token)
    assert.deepEqual(
      brands.body()._entries.map((entry: any) => entry.Nombre),
      ['Zanella']
    )
    const models = await client
      .get('/v3/modelos/bestmatch?make=agrale&model=marrua')
      .bearerToken(token)
    models.assertStatus(200)
    assert.deepEqual(models.body().Carrocerias.sort(), ['Chasis', 'Pick-up'])
    const city = await client.get('/v3/ciudades?region=UY-MO&q=pocitos').bearerToken(token)
    assert.deepEqual(
      city.body()._entries.map((entry: any) => entry.Nombre),
      ['Pocitos']
    )
  })

  test('a file with errors or no file at all fails without importing', async ({ assert }) => {
    const invalid = await runImport(fixture('catalog_invalid.csv'))
    invalid.assertFailed()
    assert.isTrue(invalid.logger.getLogs().some((log) => log.message.includes('CSV line 2')))
    const missing = await runImport(fixture('nope.json'))
    missing.assertFailed()
    const badJson = await runImport(fixture('catalog_invalid.json'))
    badJson.assertFailed()
    assert.isTrue(
      badJson.logger.getLogs().some((log) => log.message.includes('brands[0]: name required'))
    )
  })
})
