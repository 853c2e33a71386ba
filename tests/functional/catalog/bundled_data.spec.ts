import app from '@adonisjs/core/services/app'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { PROPULSIONS, TRANSMISSIONS } from '#core/value_sets'
import { BODY_TYPE_NAMES } from '#catalog/body_types'
import { SOURCES, argentinaPlaces, carJsonBrands, iso4217Currencies } from '#catalog/data/sources'
import { bodyTypeOf, propulsionOf, transmissionOf } from '#catalog/services/normalize'
import LoadBundledCatalog from '#catalog/services/load_bundled_catalog'

test.group('Bundled reference data (read from the installed packages)', () => {
  test('Argentina: 24 provinces with ISO 3166-2 codes and Spanish names, each with cities', async ({
    assert,
  }) => {
    const regions = await argentinaPlaces()
    assert.lengthOf(regions, 24)
    for (const region of regions) {
      assert.match(region.code, /^AR-[A-Z]$/)
      assert.isAbove(region.cities!.length, 0, region.code)
    }
    const byCode = Object.fromEntries(regions.map((region) => [region.code, region]))
    assert.equal(byCode['AR-C'].name, 'Ciudad Autónoma de Buenos Aires')
    assert.equal(byCode['AR-X'].name, 'Córdoba')
    assert.equal(byCode['AR-T'].name, 'Tucumán')
    assert.include(byCode['AR-S'].cities, 'Rosario')
  })

  test('ISO 4217 currencies with Spanish names', ({ assert }) => {
    const currencies = Object.fromEntries(
      iso4217Currencies().map((currency) => [currency.code, currency.name])
    )
    assert.isAbove(Object.keys(currencies).length, 100)
    assert.equal(currencies.ARS, 'Peso argentino')
    assert.equal(currencies.USD, 'Dólar estadounidense')
  })

  test('vehicles: every brand, model and version normalised onto the value sets', async ({
    assert,
  }) => {
    const brands = await carJsonBrands(2026)
    assert.isAbove(brands.length, 50)
    const toyota = brands.find((brand) => brand.codename === 'toyota')!
    const corolla = toyota.models!.find((model) => model.name === 'Corolla')!
    assert.isAbove(corolla.versions!.length, 10)
    assert.equal(brands.find((brand) => brand.codename === 'citroen')!.name, 'Citroën')
    assert.includeMembers(brands.find((brand) => brand.codename === 'volkswagen')!.codenames!, [
      'VW',
    ])

    let versions = 0
    const known = { propulsion: 0, transmission: 0, bodyType: 0 }
    const outside: string[] = []
    for (const brand of brands) {
      for (const model of brand.models!) {
        for (const version of model.versions!) {
          versions++
          const propulsion = propulsionOf(version.propulsion)
          const transmission = transmissionOf(version.transmission)
          const bodyType = bodyTypeOf(version.bodyType)
          known.propulsion += propulsion ? 1 : 0
          known.transmission += transmission ? 1 : 0
          known.bodyType += bodyType ? 1 : 0
          if (version.year! < 2000 || version.year! > 2026)
            outside.push(`${version.name}: year ${version.year}`)
          if (propulsion && !PROPULSIONS.includes(propulsion))
            outside.push(`${version.name}: ${propulsion}`)
          if (transmission && !TRANSMISSIONS.includes(transmission))
            outside.push(`${version.name}: ${transmission}`)
          if (bodyType && !BODY_TYPE_NAMES.includes(bodyType as any))
            outside.push(`${version.name}: ${bodyType}`)
        }
      }
    }
    assert.deepEqual(outside.slice(0, 5), [])
    // Words the mapping does not know become null; they must stay rare.
    for (const [field, count] of Object.entries(known))
      assert.isAbove(count / versions, 0.95, field)
    assert.isAbove(versions, 100_000)
    const hybrid = corolla.versions!.find((version) => /hybrid/i.test(version.name))!
    assert.equal(propulsionOf(hybrid.propulsion), 'Híbrido')
    assert.isAbove(hybrid.displacement!, 1000)
  })

  test('the npm start loader skips sources already recorded with their version', async ({
    assert,
  }) => {
    const names = Object.values(SOURCES).map((source) => source.name)
    const previous = await db.from('catalog_sources').whereIn('name', names).select('*')
    await db.from('catalog_sources').whereIn('name', names).delete()
    try {
      await db
        .table('catalog_sources')
        .insert(
          Object.values(SOURCES).map((source) => ({ name: source.name, version: source.version }))
        )
      const revision = await db.from('catalog_state').select('revision').first()
      const report = await (await app.container.make(LoadBundledCatalog)).execute()
      assert.deepEqual(report.loaded, [])
      assert.sameMembers(report.skipped, ['places', 'currencies', 'vehicles'])
      assert.deepEqual(
        await db.from('catalog_state').select('revision').first(),
        revision,
        'nothing was imported'
      )
    } finally {
      await db.from('catalog_sources').whereIn('name', names).delete()
      if (previous.length > 0) await db.table('catalog_sources').insert(previous)
    }
  })
})
