import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import type { CatalogSeed } from '#tests/helpers/catalog'
import { REF, assertItem, catalogWorld, getAs, names } from '#tests/helpers/catalog_api'

let token: string
let seed: CatalogSeed

const get = (client: ApiClient, url: string, accept?: string) => getAs(token, client, url, accept)

test.group('GET /v3/regiones', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog regions')))

  test('lists regions with ISO 3166-2 code and a Ciudades link group, in both forms', async ({
    client,
    assert,
  }) => {
    const full = await get(client, '/v3/regiones')
    full.assertStatus(200)
    assert.deepEqual(full.body()._links, { self: { href: '/v3/regiones' } })
    const cordoba = full.body()._entries.find((entry: any) => entry.Codigo === 'AR-X')
    assert.deepEqual(cordoba, {
      Nombre: 'Córdoba',
      Codigo: 'AR-X',
      Ciudades: { _links: { self: { href: `/v3/ciudades?region=${seed.regions['AR-X']}` } } },
      _links: { self: { href: `/v3/regiones/${seed.regions['AR-X']}` } },
    })
    assert.include(names(full.body()), 'Ciudad Autónoma de Buenos Aires')
    const ref = await get(client, '/v3/regiones', REF)
    assert.deepInclude(ref.body()._entries, {
      href: `/v3/regiones/${seed.regions['AR-X']}`,
      title: 'Córdoba',
    })
    ;(await get(client, '/v3/regiones').header('If-None-Match', full.header('etag')!)).assertStatus(
      304
    )
  })

  test('GET /v3/regiones/{id}: full, reference, 404, 400', async ({ client, assert }) => {
    const id = seed.regions['AR-S']
    const full = await get(client, `/v3/regiones/${id}`)
    full.assertStatus(200)
    assert.include(full.body(), { Nombre: 'Santa Fe', Codigo: 'AR-S' })
    assert.deepEqual((await get(client, `/v3/regiones/${id}`, REF)).body(), {
      href: `/v3/regiones/${id}`,
      title: 'Santa Fe',
    })
    ;(await get(client, '/v3/regiones/2147483647')).assertStatus(404)
    const bad = await get(client, '/v3/regiones/AR-S')
    bad.assertStatus(400)
    assert.properties(bad.body().Errors, ['id'])
  })
})

test.group('GET /v3/ciudades', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog cities')))

  test('cities of a region given as id, href, name or ISO code', async ({ client, assert }) => {
    const id = seed.regions['AR-X']
    for (const region of [String(id), `/v3/regiones/${id}`, 'Córdoba', 'cordoba', 'AR-X', 'ar-x']) {
      const response = await get(client, `/v3/ciudades?region=${encodeURIComponent(region)}`)
      response.assertStatus(200)
      assert.sameMembers(
        names(response.body()),
        ['Córdoba', 'Río Cuarto', 'San Miguel', 'Villa Carlos Paz'],
        region
      )
    }
    const city = (await get(client, `/v3/ciudades?region=AR-X&q=rio`)).body()._entries[0]
    assert.deepEqual(city, {
      Nombre: 'Río Cuarto',
      Region: 'Córdoba',
      _links: {
        self: { href: `/v3/ciudades/${seed.cities['AR-X/Río Cuarto']}` },
        region: { href: `/v3/regiones/${id}` },
      },
    })
  })

  test('q without region searches every region, accent- and case-insensitively; reference form', async ({
    client,
    assert,
  }) => {
    const response = await get(client, '/v3/ciudades?q=SAN%20MIGUEL', REF)
    response.assertStatus(200)
    assert.sameDeepMembers(response.body()._entries, [
      { href: `/v3/ciudades/${seed.cities['AR-B/San Miguel']}`, title: 'San Miguel, Buenos Aires' },
      { href: `/v3/ciudades/${seed.cities['AR-X/San Miguel']}`, title: 'San Miguel, Córdoba' },
    ])
    assert.deepEqual(response.body()._links.self, { href: '/v3/ciudades?q=SAN%20MIGUEL' })
  })

  test('unknown or ambiguous region and overlong q are 400', async ({ client, assert }) => {
    for (const [query, field] of [
      ['?region=Atlantida', 'region'],
      ['?region=a', 'region'],
      [`?region=${'x'.repeat(201)}`, 'region'],
      [`?q=${'x'.repeat(101)}`, 'q'],
    ]) {
      const response = await get(client, `/v3/ciudades${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, [field], query)
    }
    ;(await get(client, `/v3/ciudades?q=${'x'.repeat(100)}`)).assertStatus(200)
    const empty = await get(client, '/v3/ciudades?region=&q=')
    empty.assertStatus(200)
    assert.includeMembers(
      names(empty.body()),
      ['La Plata', 'Rosario'],
      'empty region and q are no filter'
    )
  })

  test('GET /v3/ciudades/{id}: full, reference, 304, 404, 400', async (context) => {
    const url = `/v3/ciudades/${seed.cities['AR-B/La Plata']}`
    const ref = { href: url, title: 'La Plata, Buenos Aires' }
    await assertItem(context, token, url, {
      full: { Nombre: 'La Plata', Region: 'Buenos Aires' },
      ref,
      malformed: 'laplata',
    })
  })
})

test.group('GET /v3/monedas, /v3/carrocerias, /v3/propulsiones, /v3/transmisiones', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog value sets')))

  test('monedas lists the currencies accepted in Valor with Spanish names', async ({
    client,
    assert,
  }) => {
    const response = await get(client, '/v3/monedas')
    response.assertStatus(200)
    assert.deepEqual(response.body(), {
      _links: { self: { href: '/v3/monedas' } },
      _entries: [
        {
          Codigo: 'ARS',
          Nombre: 'Peso argentino',
          Aceptada: true,
          _links: { self: { href: '/v3/monedas/ARS' } },
        },
        {
          Codigo: 'USD',
          Nombre: 'Dólar estadounidense',
          Aceptada: true,
          _links: { self: { href: '/v3/monedas/USD' } },
        },
      ],
    })
    const ref = await get(client, '/v3/monedas', REF)
    assert.deepEqual(ref.body()._entries[0], { href: '/v3/monedas/ARS', title: 'Peso argentino' })
  })

  test('GET /v3/monedas/{codigo}: any case; unknown is 404, not three letters is 400', async ({
    client,
    assert,
  }) => {
    const usd = await get(client, '/v3/monedas/usd')
    usd.assertStatus(200)
    assert.include(usd.body(), { Codigo: 'USD', Aceptada: true })
    ;(await get(client, '/v3/monedas/XXQ')).assertStatus(404)
    const bad = await get(client, '/v3/monedas/DOLAR')
    bad.assertStatus(400)
    assert.properties(bad.body().Errors, ['codigo'])
  })

  test('carrocerias: the normalised body types, each addressable by id, codename or name', async ({
    client,
    assert,
  }) => {
    const response = await get(client, '/v3/carrocerias')
    response.assertStatus(200)
    assert.deepEqual(names(response.body()), [
      'Sedán',
      'Hatchback',
      'Rural',
      'SUV',
      'Pick-up',
      'Coupé',
      'Convertible',
      'Monovolumen',
      'Utilitario',
      'Furgón',
      'Minibús',
      'Chasis',
    ])
    assert.deepEqual(response.body()._entries[0], {
      Nombre: 'Sedán',
      Codename: 'sedan',
      _links: { self: { href: '/v3/carrocerias/1' } },
    })
    for (const key of ['4', 'suv', 'SUV']) {
      const one = await get(client, `/v3/carrocerias/${key}`)
      one.assertStatus(200)
      assert.equal(one.body().Nombre, 'SUV')
    }
    assert.deepEqual((await get(client, '/v3/carrocerias/1', REF)).body(), {
      href: '/v3/carrocerias/1',
      title: 'Sedán',
    })
    ;(await get(client, '/v3/carrocerias/99')).assertStatus(404)
    ;(await get(client, '/v3/carrocerias/bote')).assertStatus(404)
  })

  test('propulsiones and transmisiones: the closed value sets, by codename or name', async ({
    client,
    assert,
  }) => {
    const propulsions = await get(client, '/v3/propulsiones')
    assert.deepEqual(names(propulsions.body()), [
      'Nafta',
      'Diésel',
      'GNC',
      'Híbrido',
      'Híbrido enchufable',
      'Eléctrico',
    ])
    assert.deepEqual(propulsions.body()._entries[3], {
      Nombre: 'Híbrido',
      Codename: 'hibrido',
      _links: { self: { href: '/v3/propulsiones/hibrido' } },
    })
    const transmissions = await get(client, '/v3/transmisiones', REF)
    assert.deepEqual(
      transmissions.body()._entries.map((entry: any) => entry.title),
      ['Manual', 'Automática', 'Automatizada', 'CVT']
    )
    for (const key of ['diesel', 'DI%C3%89SEL']) {
      const one = await get(client, `/v3/propulsiones/${key}`)
      one.assertStatus(200)
      assert.equal(one.body().Nombre, 'Diésel')
    }
    assert.equal((await get(client, '/v3/transmisiones/automatica')).body().Nombre, 'Automática')
    ;(await get(client, '/v3/propulsiones/vapor')).assertStatus(404)
    ;(await get(client, '/v3/transmisiones/pedales')).assertStatus(404)
  })
})
