/*
 * Segmento is a string for every version (docs/spec.md §2.13): kept when the data gives one,
 * derived from body type and size class otherwise (app/catalog/services/segment.ts).
 */
import app from '@adonisjs/core/services/app'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import ImportCatalog from '#catalog/services/import_catalog'
import LoadBundledCatalog from '#catalog/services/load_bundled_catalog'
import { UNCLASSIFIED } from '#catalog/services/segment'
import { createCaller } from '#tests/helpers/apps'
import { freshDatabase } from '#tests/helpers/fresh_database'

test.group('Catalogue: Segmento', () => {
  test('every version of the bundled catalogue has one', async ({ assert }) => {
    const fresh = await freshDatabase('segment')
    try {
      await fresh.migrate()
      await (await app.container.make(LoadBundledCatalog)).execute({ client: fresh.client })
      const [{ total, missing, unclassified }] = await fresh.client
        .from('versions')
        .select(
          fresh.client.raw('count(*)::int as total'),
          fresh.client.raw(
            `count(*) filter (where coalesce(btrim(segment), '') = '')::int as missing`
          ),
          fresh.client.raw('count(*) filter (where segment = ?)::int as unclassified', [
            UNCLASSIFIED,
          ])
        )
      assert.isAbove(total, 100_000)
      assert.equal(missing, 0)
      // Versions with neither displacement nor power, in models without any: rare.
      assert.isBelow(unclassified / total, 0.01)

      const segments = async (brand: string, model: string, name: string) =>
        (
          await fresh.client
            .from('versions')
            .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
            .join('brands', 'brands.id', 'vehicle_models.brand_id')
            .where('brands.codename', brand)
            .where('vehicle_models.codename', model)
            .whereILike('versions.name', name)
            .distinct('versions.segment')
        ).map((row) => row.segment)
      // The 1.8 litre Corolla sedan is a C; the 2.8 litre Hilux a mid-size pick-up.
      assert.deepEqual(await segments('toyota', 'corolla', '1.8L%'), ['C'])
      assert.deepEqual(await segments('toyota', 'hilux', '2.8L%'), ['Pick-up mediana'])
    } finally {
      await fresh.drop()
    }
  }).timeout(600_000)

  test('on the wire: imported segments kept, missing ones derived', async ({ client, assert }) => {
    await (
      await app.container.make(ImportCatalog)
    ).execute({
      brands: [
        {
          name: 'Segmentia',
          models: [
            {
              name: 'Prueba',
              versions: [
                { name: '1.0 Base', year: 2024, displacement: 999, bodyType: 'Hatchback' },
                { name: '1.0 Base', year: 2025, displacement: 999, bodyType: 'Hatchback' },
                { name: 'Eléctrico', year: 2025, power: 136, bodyType: 'Hatchback' },
                { name: 'Sin datos', year: 2025, bodyType: 'Hatchback' },
                { name: 'Importado', year: 2025, bodyType: 'Hatchback', segment: ' Premium ' },
              ],
            },
          ],
        },
      ],
    })
    const { token } = await createCaller('segment')
    const versions = await db
      .from('versions')
      .join('vehicle_models', 'vehicle_models.id', 'versions.model_id')
      .where('vehicle_models.codename', 'prueba')
      .select('versions.id', 'versions.name', 'versions.year')
    const segmentos: Record<string, string> = {}
    for (const version of versions) {
      const response = await client.get(`/v3/versiones/${version.id}`).bearerToken(token)
      response.assertStatus(200)
      segmentos[`${version.name} ${version.year}`] = response.body().Segmento
    }
    assert.deepEqual(segmentos, {
      '1.0 Base 2024': 'A',
      '1.0 Base 2025': 'A',
      // No displacement: 136 CV.
      'Eléctrico 2025': 'C',
      // No figure: the model's most common segment.
      'Sin datos 2025': 'A',
      'Importado 2025': 'Premium',
    })
  })
})
