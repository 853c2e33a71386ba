import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import type { CatalogSeed } from '#tests/helpers/catalog'
import { REF, assertItem, catalogWorld, getAs, names } from '#tests/helpers/catalog_api'

let token: string
let seed: CatalogSeed

const get = (client: ApiClient, url: string, accept?: string) => getAs(token, client, url, accept)

test.group('GET /v3/marcas', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog brands')))

  test('lists brands in full form with Codenames, a Modelos link group and self links', async ({
    client,
    assert,
  }) => {
    const response = await get(client, '/v3/marcas')
    response.assertStatus(200)
    assert.equal(response.header('content-type'), 'application/json; charset=utf-8')
    const body = response.body()
    assert.deepEqual(body._links.self, { href: '/v3/marcas' })
    const toyota = body._entries.find((entry: any) => entry.Nombre === 'Toyota')
    assert.deepEqual(toyota, {
      Nombre: 'Toyota',
      Codenames: ['toyota'],
      Modelos: { _links: { self: { href: `/v3/modelos?marca=${seed.brands.toyota}` } } },
      _links: { self: { href: `/v3/marcas/${seed.brands.toyota}` } },
    })
    const vw = body._entries.find((entry: any) => entry.Nombre === 'Volkswagen')
    assert.deepEqual(vw.Codenames, ['volkswagen', 'vw'])
  })

  test('reference form lists {href, title}', async ({ client, assert }) => {
    const response = await get(client, '/v3/marcas?q=toyota', REF)
    response.assertStatus(200)
    assert.equal(response.header('content-type'), `${REF}; charset=utf-8`)
    assert.deepEqual(response.body(), {
      _links: { self: { href: '/v3/marcas?q=toyota' } },
      _entries: [{ href: `/v3/marcas/${seed.brands.toyota}`, title: 'Toyota' }],
    })
  })

  test('q matches part of a name or a codename, case- and accent-insensitively', async ({
    client,
    assert,
  }) => {
    assert.deepEqual(names((await get(client, '/v3/marcas?q=TOYO')).body()), ['Toyota'])
    assert.deepEqual(names((await get(client, '/v3/marcas?q=citroen')).body()), ['Citroën'])
    assert.deepEqual(names((await get(client, '/v3/marcas?q=CITRO%C3%8BN')).body()), ['Citroën'])
    assert.deepEqual(names((await get(client, '/v3/marcas?q=vw')).body()), ['Volkswagen'])
    assert.deepEqual(names((await get(client, '/v3/marcas?q=benz')).body()), ['Mercedes-Benz'])
    assert.deepEqual(
      names((await get(client, '/v3/marcas?q=%25')).body()),
      [],
      'LIKE wildcards match literally'
    )
    assert.deepEqual(names((await get(client, '/v3/marcas?q=zzzz')).body()), [])
    const empty = (await get(client, '/v3/marcas?q=')).body()
    assert.includeMembers(names(empty), ['Toyota', 'Peugeot'], 'an empty q is no filter')
    assert.deepEqual(empty._links.self, { href: '/v3/marcas' })
  })

  test('q is capped at 100 characters', async ({ client, assert }) => {
    ;(await get(client, `/v3/marcas?q=${'a'.repeat(100)}`)).assertStatus(200)
    const tooLong = await get(client, `/v3/marcas?q=${'a'.repeat(101)}`)
    tooLong.assertStatus(400)
    assert.equal(tooLong.header('content-type'), 'application/problem+json; charset=utf-8')
    assert.properties(tooLong.body().Errors, ['q'])
  })

  test('soloMercadoNuevos keeps brands with something on the new-vehicle market; bad booleans are 400', async ({
    client,
    assert,
  }) => {
    const all = names((await get(client, '/v3/marcas?soloMercadoNuevos=false')).body())
    assert.includeMembers(all, ['Toyota', 'Mercedes-Benz'])
    for (const value of ['true', '1']) {
      const onMarket = names((await get(client, `/v3/marcas?soloMercadoNuevos=${value}`)).body())
      assert.include(onMarket, 'Toyota')
      assert.notInclude(onMarket, 'Mercedes-Benz')
    }
    const bad = await get(client, '/v3/marcas?soloMercadoNuevos=quizas')
    bad.assertStatus(400)
    assert.properties(bad.body().Errors, ['soloMercadoNuevos'])
  })

  test('answers 304 to its ETag, per representation; 406 for an unacceptable type', async ({
    client,
    assert,
  }) => {
    const full = await get(client, '/v3/marcas?q=toyota')
    const ref = await get(client, '/v3/marcas?q=toyota', REF)
    assert.match(full.header('etag')!, /^"[^"]+"$/)
    assert.notEqual(full.header('etag'), ref.header('etag'))
    const again = await get(client, '/v3/marcas?q=toyota').header(
      'If-None-Match',
      full.header('etag')!
    )
    again.assertStatus(304)
    assert.equal(again.text(), '')
    const refAgain = await get(client, '/v3/marcas?q=toyota', REF).header(
      'If-None-Match',
      full.header('etag')!
    )
    refAgain.assertStatus(200)
    ;(await get(client, '/v3/marcas', 'text/html')).assertStatus(406)
  })

  test('needs a token', async ({ client }) => {
    ;(await client.get('/v3/marcas')).assertStatus(401)
  })
})

test.group('GET /v3/marcas/{id} and /v3/marcas/bestmatch', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog brand')))

  test('one brand, full and reference, with an ETag', async ({ client, assert }) => {
    const id = seed.brands['mercedes-benz']
    const full = await get(client, `/v3/marcas/${id}`)
    full.assertStatus(200)
    assert.deepEqual(full.body(), {
      Nombre: 'Mercedes-Benz',
      Codenames: ['mercedes-benz', 'mercedes', 'mb'],
      Modelos: { _links: { self: { href: `/v3/modelos?marca=${id}` } } },
      _links: { self: { href: `/v3/marcas/${id}` } },
    })
    const ref = await get(client, `/v3/marcas/${id}`, REF)
    assert.deepEqual(ref.body(), { href: `/v3/marcas/${id}`, title: 'Mercedes-Benz' })
    ;(
      await get(client, `/v3/marcas/${id}`).header('If-None-Match', full.header('etag')!)
    ).assertStatus(304)
  })

  test('unknown ids are 404 (also beyond int32, docs/design.md §13); ids that are not integers ≥ 1 are 400', async ({
    client,
    assert,
  }) => {
    ;(await get(client, '/v3/marcas/2147483647')).assertStatus(404)
    ;(await get(client, '/v3/marcas/2147483648')).assertStatus(404)
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const response = await get(client, `/v3/marcas/${bad}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, ['id'], bad)
    }
  })

  test('bestmatch accepts id, href, absolute URL, name, codename and part of a name', async ({
    client,
    assert,
  }) => {
    const id = seed.brands.toyota
    for (const make of [
      String(id),
      `/v3/marcas/${id}`,
      `https://api.example.com/v3/marcas/${id}`,
      'Toyota',
      'TOYOTA',
      'toyo',
      'Toyta',
    ]) {
      const response = await get(client, `/v3/marcas/bestmatch?make=${encodeURIComponent(make)}`)
      response.assertStatus(200)
      assert.equal(response.body().Nombre, 'Toyota', make)
    }
    const vw = await get(client, '/v3/marcas/bestmatch?make=vw', REF)
    assert.deepEqual(vw.body(), {
      href: `/v3/marcas/${seed.brands.volkswagen}`,
      title: 'Volkswagen',
    })
    const accent = await get(client, '/v3/marcas/bestmatch?make=citroen')
    assert.equal(accent.body().Nombre, 'Citroën')
  })

  test('bestmatch: missing, empty, overlong, unknown and ambiguous make are 400 naming make', async ({
    client,
    assert,
  }) => {
    for (const query of [
      '',
      '?make=',
      `?make=${'x'.repeat(201)}`,
      '?make=zzzzzz',
      '?make=e',
      '?make=/v3/modelos/1',
    ]) {
      const response = await get(client, `/v3/marcas/bestmatch${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, ['make'], query)
    }
    const ambiguous = await get(client, '/v3/marcas/bestmatch?make=e')
    assert.match(ambiguous.body().Errors.make[0], /más de una/)
    const missing = await get(client, '/v3/marcas/bestmatch?make=')
    assert.match(missing.body().Errors.make[0], /obligatorio/)
    // 200 characters are accepted (and match nothing); 201 are refused as too long.
    const longest = await get(client, `/v3/marcas/bestmatch?make=${'x'.repeat(200)}`)
    assert.match(longest.body().Errors.make[0], /No hay coincidencias/)
    const tooLong = await get(client, `/v3/marcas/bestmatch?make=${'x'.repeat(201)}`)
    assert.match(tooLong.body().Errors.make[0], /200/)
  })
})

test.group('GET /v3/modelos', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog models')))

  test('models of a brand in full form', async ({ client, assert }) => {
    const response = await get(client, `/v3/modelos?marca=${seed.brands.toyota}`)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(body._links.self, { href: `/v3/modelos?marca=${seed.brands.toyota}` })
    assert.deepEqual(names(body), ['Corolla', 'Corolla Cross', 'Hilux'])
    const cross = body._entries[1]
    assert.deepEqual(cross, {
      Marca: 'Toyota',
      Nombre: 'Corolla Cross',
      Codename: 'corolla-cross',
      Carrocerias: ['SUV'],
      Versiones: {
        _links: { self: { href: `/v3/versiones?modelo=${seed.models['toyota/corolla-cross']}` } },
      },
      _links: {
        self: { href: `/v3/modelos/${seed.models['toyota/corolla-cross']}` },
        marca: { href: `/v3/marcas/${seed.brands.toyota}` },
      },
    })
  })

  test('reference form, q and soloMercadoNuevos', async ({ client, assert }) => {
    const ref = await get(client, `/v3/modelos?marca=${seed.brands.toyota}&q=CROSS`, REF)
    assert.deepEqual(ref.body()._entries, [
      { href: `/v3/modelos/${seed.models['toyota/corolla-cross']}`, title: 'Toyota Corolla Cross' },
    ])
    const vw = seed.brands.volkswagen
    assert.deepEqual(names((await get(client, `/v3/modelos?marca=${vw}`)).body()), [
      'Amarok',
      'Gol Trend',
    ])
    assert.deepEqual(
      names((await get(client, `/v3/modelos?marca=${vw}&soloMercadoNuevos=true`)).body()),
      ['Amarok']
    )
    assert.deepEqual(
      names((await get(client, `/v3/modelos?marca=${vw}&q=gol%20tr%C3%A9nd`)).body()),
      ['Gol Trend']
    )
  })

  test('marca is required, an int32 and an existing brand; q and soloMercadoNuevos are checked', async ({
    client,
    assert,
  }) => {
    for (const query of [
      '',
      '?marca=',
      '?marca=toyota',
      '?marca=0',
      '?marca=2147483648',
      '?marca=2147483647',
    ]) {
      const response = await get(client, `/v3/modelos${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, ['marca'], query)
    }
    const q = await get(client, `/v3/modelos?marca=${seed.brands.toyota}&q=${'a'.repeat(101)}`)
    q.assertStatus(400)
    assert.properties(q.body().Errors, ['q'])
    const flag = await get(client, `/v3/modelos?marca=${seed.brands.toyota}&soloMercadoNuevos=si`)
    flag.assertStatus(400)
    assert.properties(flag.body().Errors, ['soloMercadoNuevos'])
  })

  test('GET /v3/modelos/{id}: full, reference, 304, 404, 400', async (context) => {
    const url = `/v3/modelos/${seed.models['peugeot/208']}`
    await assertItem(context, token, url, {
      full: { Marca: 'Peugeot', Nombre: '208', Codename: '208' },
      ref: { href: url, title: 'Peugeot 208' },
      malformed: 'x',
    })
  })
})

test.group('GET /v3/modelos/bestmatch', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog model match')))

  test('make and model as names, codenames, ids or hrefs; a numeric model name', async ({
    client,
    assert,
  }) => {
    const corolla = await get(client, '/v3/modelos/bestmatch?make=toyota&model=COROLLA')
    corolla.assertStatus(200)
    assert.equal(corolla.body()._links.self.href, `/v3/modelos/${seed.models['toyota/corolla']}`)
    const byIds = await get(
      client,
      `/v3/modelos/bestmatch?make=${seed.brands.toyota}&model=/v3/modelos/${seed.models['toyota/hilux']}`,
      REF
    )
    assert.deepEqual(byIds.body(), {
      href: `/v3/modelos/${seed.models['toyota/hilux']}`,
      title: 'Toyota Hilux',
    })
    const codename = await get(client, '/v3/modelos/bestmatch?make=Toyota&model=corolla-cross')
    assert.equal(codename.body().Nombre, 'Corolla Cross')
    const p208 = await get(client, '/v3/modelos/bestmatch?make=peugeot&model=208')
    assert.equal(p208.body().Nombre, '208')
    const part = await get(client, '/v3/modelos/bestmatch?make=vw&model=gol')
    assert.equal(part.body().Nombre, 'Gol Trend')
  })

  test('bodystyle narrows by Carroceria (id, href, name or codename)', async ({
    client,
    assert,
  }) => {
    for (const bodystyle of ['SUV', 'suv', '4', '/v3/carrocerias/4']) {
      const response = await get(
        client,
        `/v3/modelos/bestmatch?make=toyota&model=corolla&bodystyle=${encodeURIComponent(bodystyle)}`
      )
      response.assertStatus(200)
      assert.equal(response.body().Nombre, 'Corolla Cross', bodystyle)
    }
    const sedan = await get(
      client,
      '/v3/modelos/bestmatch?make=toyota&model=corolla&bodystyle=sed%C3%A1n'
    )
    assert.equal(sedan.body().Nombre, 'Corolla')
  })

  test('each failing parameter is a 400 under its own name', async ({ client, assert }) => {
    const cases: [string, string][] = [
      ['?model=corolla', 'make'],
      ['?make=toyota', 'model'],
      ['?make=nadie&model=corolla', 'make'],
      ['?make=toyota&model=nada', 'model'],
      ['?make=toyota&model=208', 'model'],
      ['?make=toyota&model=corolla&bodystyle=bote', 'bodystyle'],
      ['?make=toyota&model=hilux&bodystyle=sedan', 'model'],
      [`?make=toyota&model=${'c'.repeat(201)}`, 'model'],
    ]
    for (const [query, field] of cases) {
      const response = await get(client, `/v3/modelos/bestmatch${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, [field], query)
    }
  })
})

test.group('GET /v3/versiones', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog versions')))

  test('without year: only versions on the new-vehicle market, full form', async ({
    client,
    assert,
  }) => {
    const corolla = seed.models['toyota/corolla']
    const response = await get(client, `/v3/versiones?modelo=${corolla}`)
    response.assertStatus(200)
    const body = response.body()
    assert.deepEqual(body._links.self, { href: `/v3/versiones?modelo=${corolla}` })
    assert.sameMembers(names(body), ['2.0 XEI CVT', '2.0 SEG CVT', '1.8 HEV SEG'])
    const hev = body._entries.find((entry: any) => entry.Nombre === '1.8 HEV SEG')
    assert.deepEqual(hev, {
      VersionYear: 2024,
      Propulsion: 'Híbrido',
      Transmision: 'CVT',
      Potencia: 122,
      Cilindrada: 1798,
      Marca: 'Toyota',
      Modelo: 'Corolla',
      Nombre: '1.8 HEV SEG',
      Codename: '1-8-hev-seg',
      Carroceria: 'Sedán',
      Segmento: 'C',
      _links: {
        self: { href: `/v3/versiones/${seed.versions['corolla/1-8-hev-seg/2024']}` },
        modelo: { href: `/v3/modelos/${corolla}` },
        marca: { href: `/v3/marcas/${seed.brands.toyota}` },
      },
    })
  })

  test('with year: every version within two model years, closest first, filtered by q', async ({
    client,
    assert,
  }) => {
    const corolla = seed.models['toyota/corolla']
    const years = (body: any) => body._entries.map((entry: any) => entry.VersionYear)
    const in2020 = (await get(client, `/v3/versiones?modelo=${corolla}&year=2020`)).body()
    assert.deepEqual(years(in2020), [2020, 2021, 2019, 2022, 2018])
    const in2017 = (await get(client, `/v3/versiones?modelo=${corolla}&year=2017`)).body()
    assert.sameMembers(years(in2017), [2018, 2019, 2015])
    const hev = (await get(client, `/v3/versiones?modelo=${corolla}&year=2025&q=H%C3%89V`)).body()
    assert.deepEqual(names(hev), ['1.8 HEV SEG'])
    const old = (await get(client, `/v3/versiones?modelo=${corolla}&year=2010`)).body()
    assert.deepEqual(old._entries, [])
  })

  test('reference form carries Marca, Modelo, Version and VersionYear', async ({
    client,
    assert,
  }) => {
    const hilux = seed.models['toyota/hilux']
    const response = await get(client, `/v3/versiones?modelo=${hilux}&q=srx`, REF)
    assert.deepEqual(response.body()._entries, [
      {
        Marca: 'Toyota',
        Modelo: 'Hilux',
        Version: '2.8 SRX 4x4 AT',
        VersionYear: 2023,
        href: `/v3/versiones/${seed.versions['hilux/2-8-srx-4x4-at/2023']}`,
        title: 'Toyota Hilux 2.8 SRX 4x4 AT 2023',
      },
    ])
  })

  test('modelo is required and must exist; year is an integer 1908..2050; q is capped', async ({
    client,
    assert,
  }) => {
    const corolla = seed.models['toyota/corolla']
    for (const [query, field] of [
      ['', 'modelo'],
      ['?modelo=corolla', 'modelo'],
      ['?modelo=2147483647', 'modelo'],
      [`?modelo=${corolla}&year=1907`, 'year'],
      [`?modelo=${corolla}&year=2051`, 'year'],
      [`?modelo=${corolla}&year=2020.5`, 'year'],
      [`?modelo=${corolla}&year=veinte`, 'year'],
      [`?modelo=${corolla}&q=${'x'.repeat(101)}`, 'q'],
    ]) {
      const response = await get(client, `/v3/versiones${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, [field], query)
    }
    for (const query of ['&year=1908', '&year=2050', `&q=${'x'.repeat(100)}`]) {
      ;(await get(client, `/v3/versiones?modelo=${corolla}${query}`)).assertStatus(200)
    }
  })

  test('GET /v3/versiones/{id}: full, reference, 304, 404, 400', async (context) => {
    const full = { Nombre: 'V6 Extreme', Propulsion: 'Diésel', Transmision: 'Automática' }
    const ref = { Marca: 'Volkswagen', Modelo: 'Amarok', Version: 'V6 Extreme', VersionYear: 2024 }
    const url = `/v3/versiones/${seed.versions['amarok/v6-extreme/2024']}`
    await assertItem(context, token, url, {
      full: { ...full, Carroceria: 'Pick-up' },
      ref,
      partialRef: true,
      malformed: '12abc',
    })
  })
})

test.group('GET /v3/versiones/bestmatch', (group) => {
  group.setup(async () => void ({ seed, token } = await catalogWorld('catalog version match')))

  test('picks the closest model year of the named version', async ({ client, assert }) => {
    const response = await get(
      client,
      '/v3/versiones/bestmatch?make=toyota&model=corolla&version=xei&year=2020'
    )
    response.assertStatus(200)
    assert.include(response.body(), { Nombre: '1.8 XEI CVT', VersionYear: 2020 })
    const ref = await get(
      client,
      '/v3/versiones/bestmatch?make=toyota&model=corolla&version=1.8%20xei%20cvt&year=2025',
      REF
    )
    assert.include(ref.body(), { Version: '1.8 XEI CVT', VersionYear: 2023 })
  })

  test('propulsion and transmission narrow it, in Spanish or English, any case or accent', async ({
    client,
    assert,
  }) => {
    for (const propulsion of ['Híbrido', 'HIBRIDO', 'hybrid']) {
      const response = await get(
        client,
        `/v3/versiones/bestmatch?make=toyota&model=corolla&year=2024&propulsion=${encodeURIComponent(propulsion)}`
      )
      response.assertStatus(200)
      assert.equal(response.body().Nombre, '1.8 HEV SEG', propulsion)
    }
    const manual = await get(
      client,
      '/v3/versiones/bestmatch?make=toyota&model=hilux&year=2023&transmission=manual&propulsion=diesel'
    )
    assert.equal(manual.body().Nombre, '2.4 DX 4x2 MT')
  })

  test('errors name their parameter: ambiguous and unknown versions, bad value sets, bad year', async ({
    client,
    assert,
  }) => {
    const cases: [string, string][] = [
      ['?model=corolla', 'make'],
      ['?make=toyota', 'model'],
      // No version sent and several fit: the model (sent) is named, not version (docs/design.md §24).
      ['?make=toyota&model=corolla&year=2024&transmission=cvt', 'model'],
      ['?make=toyota&model=corolla&version=xei&year=2010', 'version'],
      ['?make=toyota&model=corolla&propulsion=vapor', 'propulsion'],
      ['?make=toyota&model=corolla&transmission=pedales', 'transmission'],
      ['?make=toyota&model=corolla&year=1907', 'year'],
      ['?make=toyota&model=corolla&year=dos', 'year'],
    ]
    for (const [query, field] of cases) {
      const response = await get(client, `/v3/versiones/bestmatch${query}`)
      response.assertStatus(400)
      assert.properties(response.body().Errors, [field], query)
    }
  })
})
