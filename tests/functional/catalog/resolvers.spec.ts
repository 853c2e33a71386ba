import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import PlaceResolver from '#catalog/services/place_resolver'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import { seedCatalog } from '#tests/helpers/catalog'

const places = await app.container.make(PlaceResolver)
const vehicles = await app.container.make(VehicleResolver)

test.group('PlaceResolver', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('a region by id, href, absolute URL, ISO code, name and part of it, any case or accent', async ({
    assert,
  }) => {
    const { regions } = await seedCatalog()
    const cordoba = regions['AR-X']
    for (const input of [
      String(cordoba),
      `/v3/regiones/${cordoba}`,
      `/v3/regiones/${cordoba}/`,
      `http://api.example.com/v3/regiones/${cordoba}`,
      'AR-X',
      'ar-x',
      'Córdoba',
      'CORDOBA',
      ' córdoba ',
      'cordob',
    ]) {
      const result = await places.region(input)
      assert.isTrue(result.ok, input)
      if (result.ok)
        assert.deepEqual(result.value, { id: cordoba, code: 'AR-X', name: 'Córdoba' }, input)
    }
  })

  test('a part shared by two regions is ambiguous; nonsense, a wrong href and an unknown id are not found', async ({
    assert,
  }) => {
    assert.deepInclude(await places.region('Buenos Aires'), { ok: true })
    assert.deepInclude(await places.region('Santa'), { ok: true })
    assert.deepInclude(await places.region('a'), { ok: false, reason: 'ambiguous' })
    assert.deepInclude(await places.region('Xyzzy'), { ok: false, reason: 'not_found' })
    assert.deepInclude(await places.region(''), { ok: false, reason: 'not_found' })
    assert.deepInclude(await places.region('/v3/marcas/1'), { ok: false, reason: 'not_found' })
    assert.deepInclude(await places.region('999999999'), { ok: false, reason: 'not_found' })
    assert.deepInclude(await places.region('99999999999999'), { ok: false, reason: 'not_found' })
  })

  test('"Buenos Aires" is the province, not the autonomous city, which has its own name', async ({
    assert,
  }) => {
    const { regions } = await seedCatalog()
    const province = await places.region('buenos aires')
    assert.isTrue(province.ok && province.value.id === regions['AR-B'])
    const city = await places.region('ciudad autonoma')
    assert.isTrue(city.ok && city.value.id === regions['AR-C'])
  })

  test('a city by id, href, full or partial name, within the region when given', async ({
    assert,
  }) => {
    const { regions, cities } = await seedCatalog()
    const laPlata = cities['AR-B/La Plata']
    for (const input of [
      String(laPlata),
      `/v3/ciudades/${laPlata}`,
      'La Plata',
      'LA PLATA',
      'plata',
    ]) {
      const result = await places.city(input, regions['AR-B'])
      assert.isTrue(result.ok, input)
      if (result.ok) {
        assert.deepEqual(result.value, {
          id: laPlata,
          regionId: regions['AR-B'],
          name: 'La Plata',
          regionName: 'Buenos Aires',
        })
      }
    }
    assert.deepInclude(await places.city('La Plata', regions['AR-X']), {
      ok: false,
      reason: 'not_found',
    })
    assert.deepInclude(await places.city(String(laPlata), regions['AR-X']), {
      ok: false,
      reason: 'not_found',
    })
    const rio = await places.city('rio cuarto')
    assert.isTrue(rio.ok && rio.value.id === cities['AR-X/Río Cuarto'])
  })

  test('the same city name in two regions is ambiguous until the region is given', async ({
    assert,
  }) => {
    const { regions, cities } = await seedCatalog()
    assert.deepInclude(await places.city('San Miguel'), { ok: false, reason: 'ambiguous' })
    const inCordoba = await places.city('San Miguel', regions['AR-X'])
    assert.isTrue(inCordoba.ok && inCordoba.value.id === cities['AR-X/San Miguel'])
    assert.deepInclude(await places.city('San', regions['AR-B']), {
      ok: false,
      reason: 'ambiguous',
    })
  })

  test('names() resolves many ids at once', async ({ assert }) => {
    const { regions, cities } = await seedCatalog()
    const names = await places.names([
      { regionId: regions['AR-S'], cityId: cities['AR-S/Rosario'] },
      { regionId: regions['AR-C'] },
      { cityId: null },
    ])
    assert.equal(names.regions.get(regions['AR-S'])?.name, 'Santa Fe')
    assert.equal(names.regions.get(regions['AR-C'])?.code, 'AR-C')
    assert.equal(names.cities.get(cities['AR-S/Rosario'])?.regionName, 'Santa Fe')
  })
})

test.group('VehicleResolver', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('a brand by id, href, name, codename and part of a name, accent- and case-insensitive', async ({
    assert,
  }) => {
    const { brands } = await seedCatalog()
    const cases: [string, number][] = [
      [String(brands.toyota), brands.toyota],
      [`/v3/marcas/${brands.toyota}`, brands.toyota],
      ['toyota', brands.toyota],
      ['TOYOTA', brands.toyota],
      ['toyo', brands.toyota],
      ['VW', brands.volkswagen],
      ['mb', brands['mercedes-benz']],
      ['Mercedes', brands['mercedes-benz']],
      ['citroen', brands.citroen],
      ['CITROËN', brands.citroen],
      ['Toyta', brands.toyota],
    ]
    for (const [input, id] of cases) {
      const result = await vehicles.brand(input)
      assert.isTrue(result.ok && result.value.id === id, input)
    }
    assert.deepInclude(await vehicles.brand('zzzz'), { ok: false, reason: 'not_found' })
    assert.deepInclude(await vehicles.brand('/v3/modelos/1'), { ok: false, reason: 'not_found' })
  })

  test('a model within its brand; a numeric model name wins over an id', async ({ assert }) => {
    const { brands, models } = await seedCatalog()
    const corolla = await vehicles.model('corolla', brands.toyota)
    assert.isTrue(corolla.ok && corolla.value.id === models['toyota/corolla'])
    if (corolla.ok) assert.equal(corolla.value.brandName, 'Toyota')
    const cross = await vehicles.model('corolla-cross', brands.toyota)
    assert.isTrue(cross.ok && cross.value.id === models['toyota/corolla-cross'])
    const crossByPart = await vehicles.model('cross', brands.toyota)
    assert.isTrue(crossByPart.ok && crossByPart.value.id === models['toyota/corolla-cross'])
    const p208 = await vehicles.model('208', brands.peugeot)
    assert.isTrue(p208.ok && p208.value.id === models['peugeot/208'])
    const byHref = await vehicles.model(`/v3/modelos/${models['peugeot/2008']}`, brands.peugeot)
    assert.isTrue(byHref.ok && byHref.value.id === models['peugeot/2008'])
    assert.deepInclude(await vehicles.model('corolla', brands.peugeot), {
      ok: false,
      reason: 'not_found',
    })
    // Another brand's model id never resolves (it may still be "part of" a Peugeot name such as 208).
    const foreign = await vehicles.model(`/v3/modelos/${models['toyota/hilux']}`, brands.peugeot)
    assert.deepInclude(foreign, { ok: false, reason: 'not_found' })
  })

  test('a body type narrows the models', async ({ assert }) => {
    const { brands, models } = await seedCatalog()
    const suv = await vehicles.model('corolla', brands.toyota, 'SUV')
    assert.isTrue(suv.ok && suv.value.id === models['toyota/corolla-cross'])
    assert.deepInclude(await vehicles.model('hilux', brands.toyota, 'Sedán'), {
      ok: false,
      reason: 'not_found',
    })
  })

  test('a version: the closest model year within ±2, or the new-market one without a year', async ({
    assert,
  }) => {
    const { models, versions } = await seedCatalog()
    const corolla = models['toyota/corolla']
    const in2020 = await vehicles.version('xei', corolla, 2020)
    assert.isTrue(in2020.ok && in2020.value.id === versions['corolla/1-8-xei-cvt/2020'])
    if (in2020.ok) {
      assert.include(in2020.value, {
        year: 2020,
        propulsion: 'Nafta',
        transmission: 'CVT',
        power: 140,
        displacement: 1798,
      })
      assert.include(in2020.value, { bodyType: 'Sedán', brandName: 'Toyota', modelName: 'Corolla' })
    }
    const in2026 = await vehicles.version('1.8 xei', corolla, 2026)
    assert.deepInclude(in2026, { ok: false, reason: 'not_found' })
    const in2025 = await vehicles.version('1.8 xei', corolla, 2025)
    assert.isTrue(in2025.ok && in2025.value.year === 2023)
    const now = await vehicles.version('2.0 xei cvt', corolla)
    assert.isTrue(now.ok && now.value.id === versions['corolla/2-0-xei-cvt/2024'])
    assert.deepInclude(await vehicles.version('2.0', corolla), { ok: false, reason: 'ambiguous' })
    assert.deepInclude(await vehicles.version('hev', corolla, 2024, { propulsion: 'Nafta' }), {
      ok: false,
      reason: 'not_found',
    })
    const hybrid = await vehicles.version('', corolla, 2024, { propulsion: 'Híbrido' })
    assert.isTrue(hybrid.ok && hybrid.value.id === versions['corolla/1-8-hev-seg/2024'])
    assert.deepInclude(await vehicles.version('', corolla, 2024, { transmission: 'CVT' }), {
      ok: false,
      reason: 'ambiguous',
    })
  })

  test('versionById and unknown ids', async ({ assert }) => {
    const { versions } = await seedCatalog()
    const found = await vehicles.versionById(versions['hilux/2-8-srx-4x4-at/2023'])
    assert.isTrue(
      found.ok && found.value.propulsion === 'Diésel' && found.value.transmission === 'Automática'
    )
    assert.deepInclude(await vehicles.versionById(2_000_000_000), {
      ok: false,
      reason: 'not_found',
    })
  })

  test('body types by id, href, name and codename', ({ assert }) => {
    assert.deepInclude(vehicles.bodyType('sedan'), { ok: true })
    assert.equal((vehicles.bodyType('SEDÁN') as any).value.name, 'Sedán')
    assert.equal((vehicles.bodyType('4') as any).value.name, 'SUV')
    assert.equal((vehicles.bodyType('/v3/carrocerias/5') as any).value.name, 'Pick-up')
    assert.deepInclude(vehicles.bodyType('bote'), { ok: false, reason: 'not_found' })
    assert.deepInclude(vehicles.bodyType('99'), { ok: false, reason: 'not_found' })
  })
})
