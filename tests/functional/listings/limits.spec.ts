import { test } from '@japa/runner'
import { assertErrorKey, listingBody, setup, thisYear } from './support.js'

/** POSTs a body with `overrides` and returns the response. */
async function create(
  client: any,
  ctx: Awaited<ReturnType<typeof setup>>,
  overrides: Record<string, unknown>
) {
  return client.post(ctx.base).bearerToken(ctx.token).json(listingBody(overrides))
}

test.group('Listings: limits of docs/spec.md §8, both sides of each edge', (group) => {
  let ctx: Awaited<ReturnType<typeof setup>>
  group.setup(async () => {
    ctx = await setup({ plan: { capacity: 500, alta: 500, media: 500, baja: 500 } })
  })

  const edges: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    ['RefStock 25 / 26', { RefStock: 'r'.repeat(25) }, { RefStock: 'r'.repeat(26) }, 'RefStock'],
    [
      'Descripcion 2000 / 2001',
      { Descripcion: 'd'.repeat(2000) },
      { Descripcion: 'd'.repeat(2001) },
      'Descripcion',
    ],
    ['Kilometraje 0 / -1', { Kilometraje: 0 }, { Kilometraje: -1 }, 'Kilometraje'],
    ['Kilometraje integer / decimal', { Kilometraje: 0 }, { Kilometraje: 0.5 }, 'Kilometraje'],
    ['VersionYear 2050 / 2051', { VersionYear: 2050 }, { VersionYear: 2051 }, 'VersionYear'],
    ['Exposicion Media / Altas', { Exposicion: 'Media' }, { Exposicion: 'Altas' }, 'Exposicion'],
    [
      'Exposicion 5 chars / 6 chars',
      { Exposicion: 'media' },
      { Exposicion: 'Mediaa' },
      'Exposicion',
    ],
    ['Color 1 char / empty', { Color: 'R' }, { Color: '' }, 'Color'],
    [
      'OperadorResponsable 50 / 51 chars',
      { OperadorResponsable: `${'o'.repeat(38)}@example.com` },
      { OperadorResponsable: `${'o'.repeat(39)}@example.com` },
      'OperadorResponsable',
    ],
    [
      'ExternalId 2 / 1 chars',
      { ExternalId: `x${Math.random().toString(36).slice(2, 3)}` },
      { ExternalId: 'x' },
      'ExternalId',
    ],
    [
      'ExternalId 255 / 256 chars',
      { ExternalId: 'e'.repeat(240) + Date.now().toString().slice(-15) },
      { ExternalId: 'e'.repeat(256) },
      'ExternalId',
    ],
    [
      'ExternalId allowed / forbidden characters',
      { ExternalId: `A-z_0.9~${Date.now()}` },
      { ExternalId: 'con espacio' },
      'ExternalId',
    ],
    [
      'Precio ARS / EUR',
      { Precio: { Moneda: 'ars', Importe: 1000.5 } },
      { Precio: { Moneda: 'EUR', Importe: 1000 } },
      'Precio.Moneda',
    ],
    [
      'Importe 2 / 3 decimals',
      { Cuota: { Moneda: 'USD', Importe: 10.25 } },
      { Cuota: { Moneda: 'USD', Importe: 10.255 } },
      'Cuota.Importe',
    ],
    [
      'Importe 0 / negative',
      { Adelanto: { Moneda: 'USD', Importe: 0 } },
      { Adelanto: { Moneda: 'USD', Importe: -1 } },
      'Adelanto.Importe',
    ],
    [
      'DatosTecnicosCustom 50 / 51 items',
      {
        Version: 'Edición especial',
        Transmision: 'Manual',
        Propulsion: 'Nafta',
        DatosTecnicosCustom: Array.from({ length: 50 }, (_, i) => ({
          Nombre: `N${i}`,
          Valor: 'v',
        })),
      },
      {
        Version: 'Edición especial',
        Transmision: 'Manual',
        Propulsion: 'Nafta',
        DatosTecnicosCustom: Array.from({ length: 51 }, (_, i) => ({
          Nombre: `N${i}`,
          Valor: 'v',
        })),
      },
      'DatosTecnicosCustom',
    ],
    [
      'Transmision known / unknown value',
      { Transmision: 'automatica' },
      { Transmision: 'Secuencial' },
      'Transmision',
    ],
    [
      'Locacion.Region known / unknown',
      { Locacion: { Region: 'Córdoba' } },
      { Locacion: { Region: 'Atlántida' } },
      'Locacion.Region',
    ],
    [
      'Locacion.Ciudad in region / elsewhere',
      { Locacion: { Region: 'AR-S', Ciudad: 'Rosario' } },
      { Locacion: { Region: 'AR-S', Ciudad: 'La Plata' } },
      'Locacion.Ciudad',
    ],
    [
      'Marca known / unknown',
      { Marca: 'VW', Modelo: 'Amarok', Version: 'V6 Extreme' },
      { Marca: 'Trabant' },
      'Marca',
    ],
    [
      'Modelo known / unknown',
      { Modelo: 'Hilux', Version: '2.8 SRX 4x4 AT' },
      { Modelo: 'Supra' },
      'Modelo',
    ],
  ]
  for (const [name, good, bad, key] of edges) {
    test(name, async ({ client, assert }) => {
      const accepted = await create(client, ctx, good)
      accepted.assertStatus(201)
      const refused = await create(client, ctx, bad)
      refused.assertStatus(400)
      assertErrorKey(assert, refused.body(), key)
    })
  }

  test('Kilometraje 999000 accepted range edge / 999001 out of range', async ({
    client,
    assert,
  }) => {
    // 999000 km is only plausible for a very old vehicle (≥ 10 years at 100000 km/year).
    const photos = { Fotos: ['https://fotos.example.com/a.jpg'] }
    ;(
      await create(client, ctx, {
        Kilometraje: 999000,
        VersionYear: 1990,
        Version: '1.8 XLI MT',
        ...photos,
      })
    ).assertStatus(201)
    const refused = await create(client, ctx, { Kilometraje: 999001, VersionYear: 1990, ...photos })
    refused.assertStatus(400)
    assertErrorKey(assert, refused.body(), 'Kilometraje')
  })

  test('VersionYear 1908 / 1907', async ({ client, assert }) => {
    const photos = { Fotos: ['https://fotos.example.com/a.jpg'] }
    ;(
      await create(client, ctx, {
        VersionYear: 1908,
        Kilometraje: 50000,
        Version: 'Modelo T',
        Transmision: 'Manual',
        Propulsion: 'Nafta',
        ...photos,
      })
    ).assertStatus(201)
    const refused = await create(client, ctx, { VersionYear: 1907, Kilometraje: 50000, ...photos })
    refused.assertStatus(400)
    assertErrorKey(assert, refused.body(), 'VersionYear')
  })

  test('Kilometraje 0 only for new vehicles: last year / two years ago', async ({
    client,
    assert,
  }) => {
    ;(await create(client, ctx, { VersionYear: thisYear() - 1, Kilometraje: 0 })).assertStatus(201)
    const refused = await create(client, ctx, { VersionYear: thisYear() - 2, Kilometraje: 0 })
    refused.assertStatus(400)
    assert.match(refused.body().Errors.Kilometraje[0], /vehículo nuevo/)
  })

  test('suspicious mileage: 100000 km per year of age / one more', async ({ client, assert }) => {
    const photos = { Fotos: ['https://fotos.example.com/a.jpg'] }
    const year = thisYear() - 3
    ;(
      await create(client, ctx, { VersionYear: year, Kilometraje: 300000, ...photos })
    ).assertStatus(201)
    const refused = await create(client, ctx, { VersionYear: year, Kilometraje: 300001, ...photos })
    refused.assertStatus(400)
    assert.match(refused.body().Errors.Kilometraje[0], /sospechoso/)
  })

  test('Color is truncated at 50 characters', async ({ client, assert }) => {
    const response = await create(client, ctx, { Color: 'c'.repeat(80) })
    response.assertStatus(201)
    assert.equal(response.body().Color, 'c'.repeat(50))
  })

  test('photos are mandatory for used vehicles: with one / without', async ({ client, assert }) => {
    const used = { VersionYear: thisYear() - 2, Kilometraje: 20000 }
    ;(
      await create(client, ctx, { ...used, Fotos: ['https://fotos.example.com/a.jpg'] })
    ).assertStatus(201)
    const refused = await create(client, ctx, used)
    refused.assertStatus(400)
    assertErrorKey(assert, refused.body(), 'Fotos')
    const empty = await create(client, ctx, { ...used, Fotos: [] })
    empty.assertStatus(400)
  })

  test('Fotos must be http(s) URLs', async ({ client, assert }) => {
    const refused = await create(client, ctx, {
      Fotos: ['https://fotos.example.com/a.jpg', 'ftp://fotos.example.com/b.jpg'],
    })
    refused.assertStatus(400)
    assertErrorKey(assert, refused.body(), 'Fotos.1')
  })

  test('AplicaCertificadoGarantiaUsado: used vehicle gets the certificate / new vehicle refused', async ({
    client,
    assert,
  }) => {
    const used = await create(client, ctx, {
      VersionYear: thisYear() - 2,
      Kilometraje: 20000,
      Fotos: ['https://fotos.example.com/a.jpg'],
      AplicaCertificadoGarantiaUsado: true,
    })
    used.assertStatus(201)
    assert.deepEqual(used.body().CertificadoDeGarantiaUsado, { Aplica: true })
    const fresh = await create(client, ctx, { AplicaCertificadoGarantiaUsado: true })
    fresh.assertStatus(400)
    assertErrorKey(assert, fresh.body(), 'AplicaCertificadoGarantiaUsado')
  })

  test('unknown Version keeps its name and stores DatosTecnicosCustom; a known one shows the catalogue data', async ({
    client,
    assert,
  }) => {
    const custom = [{ Nombre: 'Techo', Valor: 'Panorámico' }]
    const free = await create(client, ctx, {
      Version: '1.8 Edición Aniversario',
      Transmision: 'CVT',
      Propulsion: 'Híbrido',
      DatosTecnicosCustom: custom,
    })
    free.assertStatus(201)
    assert.equal(free.body().Version, '1.8 Edición Aniversario')
    assert.deepEqual(free.body().DatosTecnicosCustom, custom)
    const known = await create(client, ctx, { Version: '2.0 SEG CVT', DatosTecnicosCustom: custom })
    known.assertStatus(201)
    assert.equal(known.body().Version, '2.0 SEG CVT')
    assert.notDeepInclude(known.body().DatosTecnicosCustom, custom[0])
    assert.deepInclude(known.body().DatosTecnicosCustom, {
      Nombre: 'Cilindrada',
      Valor: '1987 cm³',
    })
  })

  test('unknown Version needs Transmision and Propulsion', async ({ client, assert }) => {
    const refused = await create(client, ctx, { Version: 'Inexistente XYZ' })
    refused.assertStatus(400)
    assert.properties(refused.body().Errors, ['Transmision', 'Propulsion'])
    const accepted = await create(client, ctx, {
      Version: 'Inexistente XYZ',
      Transmision: 'manual',
      Propulsion: 'diesel',
    })
    accepted.assertStatus(201)
    assert.include(accepted.body(), { Transmision: 'Manual', Propulsion: 'Diésel' })
  })

  test('Telefono must be one of the operator phones; null → the first', async ({
    client,
    assert,
  }) => {
    const phones = ctx.fixture.admin.phones
    const chosen = await create(client, ctx, { Telefono: phones[1] })
    chosen.assertStatus(201)
    assert.equal(chosen.body().Telefono, phones[1])
    const defaulted = await create(client, ctx, { Telefono: null })
    assert.equal(defaulted.body().Telefono, phones[0])
    const refused = await create(client, ctx, { Telefono: '011 9999-9999' })
    refused.assertStatus(400)
    assertErrorKey(assert, refused.body(), 'Telefono')
  })

  test('bad JSON types are 400 with wire keys, never 500', async ({ client, assert }) => {
    const refused = await create(client, ctx, {
      VersionYear: '2020',
      Kilometraje: 1.5,
      Activa: 'yes',
      Locacion: 'x',
      Fotos: 'x',
    })
    refused.assertStatus(400)
    assert.properties(refused.body().Errors, [
      'VersionYear',
      'Kilometraje',
      'Activa',
      'Locacion',
      'Fotos',
    ])
  })
})
