/*
 * Ambiguity shows its candidates (docs/design.md §24): a best match that
 * cannot choose answers 400 with `Extensions.Candidatos` (href, Nombre,
 * Carroceria, Puertas) and `Errors` keyed only by parameters the caller sent;
 * a model or version that matches nothing suggests the nearest names
 * (`S10` → `S-10`, `Gol Trend` → `Gol`). Each case beside its unambiguous twin.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import ImportCatalog from '#catalog/services/import_catalog'
import { createCaller } from '#tests/helpers/apps'

const BRAND = 'Hache Pruebas'
const pickup = (name: string) => ({
  name,
  year: 2024,
  propulsion: 'Diésel',
  transmission: 'Manual',
  power: 200,
  displacement: 2776,
  bodyType: 'Pick-up',
  segment: 'Pick-up mediana',
})

let token: string
let ids: { versions: Record<string, number>; models: Record<string, number> }

const get = (client: ApiClient, path: string, query: Record<string, string>) =>
  client.get(`${path}?${new URLSearchParams({ make: BRAND, ...query })}`).bearerToken(token)

test.group('Catalogue best match: candidates and suggestions', (group) => {
  group.setup(async () => {
    await (
      await app.container.make(ImportCatalog)
    ).execute({
      brands: [
        {
          name: BRAND,
          models: [
            { name: 'S-10', versions: [pickup('2.8 LTZ 4x4 4P'), pickup('2.8 LTZ 4x4 2P')] },
            {
              name: 'Gol',
              versions: [{ ...pickup('1.6 Power 5P'), bodyType: 'Hatchback', segment: 'B' }],
            },
          ],
        },
      ],
    })
    const rows = await db
      .from('versions')
      .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
      .join('brands', 'brands.id', 'vehicle_models.brand_id')
      .where('brands.name', BRAND)
      .select(
        'versions.id',
        'versions.name',
        'vehicle_models.id as modelId',
        'vehicle_models.name as model'
      )
    ids = {
      versions: Object.fromEntries(rows.map((row) => [row.name, row.id])),
      models: Object.fromEntries(rows.map((row) => [row.model, row.modelId])),
    }
    ;({ token } = await createCaller('catalog candidates'))
  })

  test('an ambiguous version lists its candidates; the full name resolves', async ({
    client,
    assert,
  }) => {
    const ambiguous = await get(client, '/v3/versiones/bestmatch', {
      model: 'S-10',
      version: '2.8 LTZ',
    })
    ambiguous.assertStatus(400)
    const body = ambiguous.body()
    assert.deepEqual(Object.keys(body.Errors), ['version'])
    assert.include(body.Errors.version[0], '«2.8 LTZ 4x4 2P»')
    assert.sameDeepMembers(body.Extensions.Candidatos, [
      {
        href: `/v3/versiones/${ids.versions['2.8 LTZ 4x4 4P']}`,
        Nombre: '2.8 LTZ 4x4 4P',
        VersionYear: 2024,
        Carroceria: 'Pick-up',
        Puertas: 4,
      },
      {
        href: `/v3/versiones/${ids.versions['2.8 LTZ 4x4 2P']}`,
        Nombre: '2.8 LTZ 4x4 2P',
        VersionYear: 2024,
        Carroceria: 'Pick-up',
        Puertas: 2,
      },
    ])
    const chosen = await get(client, '/v3/versiones/bestmatch', {
      model: 'S-10',
      version: '2.8 LTZ 4x4 4P',
    })
    chosen.assertStatus(200)
    assert.equal(chosen.body().Nombre, '2.8 LTZ 4x4 4P')
  })

  test('no version sent and several fit: the error names the model (sent), not version; one fitting resolves', async ({
    client,
    assert,
  }) => {
    const several = await get(client, '/v3/versiones/bestmatch', { model: 'S-10' })
    several.assertStatus(400)
    assert.deepEqual(Object.keys(several.body().Errors), ['model'])
    assert.notMatch(several.body().Errors.model[0], /\bversion\b/)
    assert.lengthOf(several.body().Extensions.Candidatos, 2)
    const one = await get(client, '/v3/versiones/bestmatch', { model: 'Gol' })
    one.assertStatus(200)
    assert.equal(one.body().Nombre, '1.6 Power 5P')
  })

  test('a model not found suggests the nearest names: S10 → S-10, Gol Trend → Gol; nothing near, no suggestion', async ({
    client,
    assert,
  }) => {
    for (const [input, nearest] of [
      ['S10', 'S-10'],
      ['Gol Trend', 'Gol'],
    ]) {
      const missing = await get(client, '/v3/modelos/bestmatch', { model: input })
      missing.assertStatus(400)
      const body = missing.body()
      assert.deepEqual(Object.keys(body.Errors), ['model'], input)
      assert.include(body.Errors.model[0], `¿Quiso decir «${nearest}»?`)
      assert.deepEqual(body.Extensions.Sugerencias[0], {
        href: `/v3/modelos/${ids.models[nearest]}`,
        Nombre: nearest,
        VersionYear: null,
        Carroceria: nearest === 'Gol' ? 'Hatchback' : 'Pick-up',
        Puertas: null,
      })
      assert.notProperty(body.Extensions, 'Candidatos')
      ;(await get(client, '/v3/modelos/bestmatch', { model: nearest })).assertStatus(200)
    }
    const far = await get(client, '/v3/modelos/bestmatch', { model: 'Ranger' })
    far.assertStatus(400)
    assert.notProperty(far.body().Extensions, 'Sugerencias')
    assert.notInclude(far.body().Errors.model[0], 'Quiso decir')
  })

  test('a version not found suggests the nearest of its model', async ({ client, assert }) => {
    // Written without its spaces and points: neither contained nor trigram-similar.
    const missing = await get(client, '/v3/versiones/bestmatch', {
      model: 'S-10',
      version: '28LTZ4x44P',
    })
    missing.assertStatus(400)
    assert.deepEqual(Object.keys(missing.body().Errors), ['version'])
    assert.equal(missing.body().Extensions.Sugerencias[0].Nombre, '2.8 LTZ 4x4 4P')
  })
})
