/*
 * Defaults a dealer expects (docs/design.md §19): a listing created without
 * `Locacion` takes its agency's main branch (Region, Ciudad, Direccion); one
 * with `Locacion` keeps it, and `Locacion: null` means none.
 */
import { test } from '@japa/runner'
import { listingBody, setup } from './support.js'

test.group('Listings: Locacion defaults to the main branch', () => {
  test('created without Locacion: the main branch’s place; with it: as sent', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const branches = await client.get(`/v3/sucursales/${ctx.adminMail}`).bearerToken(ctx.token)
    const main = branches.body()._entries[0]._links.self.href as string
    const moved = await client
      .put(main)
      .bearerToken(ctx.token)
      .json({ Region: 'AR-B', Ciudad: 'La Plata', Direccion: 'Calle 50 742' })
    moved.assertStatus(200)

    const cases: [string, Record<string, unknown>, Record<string, string | null>][] = [
      ['defaulted', {}, { Region: 'Buenos Aires', Ciudad: 'La Plata', Direccion: 'Calle 50 742' }],
      [
        'sent',
        { Locacion: { Region: 'AR-S', Ciudad: 'Rosario', Direccion: 'Oroño 1' } },
        { Region: 'Santa Fe', Ciudad: 'Rosario', Direccion: 'Oroño 1' },
      ],
      ['none', { Locacion: null }, { Region: null, Ciudad: null, Direccion: null }],
    ]
    for (const [label, overrides, expected] of cases) {
      const created = await client
        .post(ctx.base)
        .bearerToken(ctx.token)
        .json(listingBody(overrides))
      created.assertStatus(201)
      assert.deepEqual(created.body().Locacion, expected, label)
    }
  })
})

test.group('Listings: conditionally required fields in the document', () => {
  test('each conditional field of PublicacionCreate and PublicacionEdit says its condition', async ({
    client,
    assert,
  }) => {
    const document = (await client.get('/v3/openapi.json')).body()
    const create = document.components.schemas.PublicacionCreate.properties
    const edit = document.components.schemas.PublicacionEdit.properties
    for (const field of ['Transmision', 'Propulsion', 'VersionYear'])
      assert.match(create[field].description ?? '', /Obligatorio cuando la versión/, field)
    assert.notInclude(document.components.schemas.PublicacionCreate.required, 'Transmision')
    for (const properties of [create, edit]) {
      assert.match(properties.Fotos.description ?? '', /Obligatorias .* Kilometraje es mayor que 0/)
      assert.match(properties.Locacion.description ?? '', /sucursal principal/)
    }
  })
})
