/*
 * Catalogue ETags under a concurrent import (docs/design.md §13): an import commits
 * its data, then bumps `catalog_state.revision`. A response must never carry
 * the new revision's ETag over data read before the import committed, or
 * clients would keep that stale body (304) until the next import.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ImportCatalog from '#catalog/services/import_catalog'
import { createCaller } from '#tests/helpers/apps'
import { seedCatalog } from '#tests/helpers/catalog'
import { until } from '#tests/helpers/until'

test.group('Catalogue: ETags while an import commits', () => {
  test('a GET overlapping the revision bump never pairs the new ETag with the old body', async ({
    client,
    assert,
  }) => {
    await seedCatalog()
    const { token } = await createCaller('catalog etag race')
    const name = `Carrera ${Date.now()}`
    await (await app.container.make(ImportCatalog)).execute({ brands: [{ name }] })
    const { id } = await db.from('brands').where('name', name).select('id').first()
    const get = () => client.get(`/v3/marcas/${id}`).bearerToken(token)
    const before = await get()
    before.assertStatus(200)

    // The import's last step, held open: while the revision is being bumped, a GET comes in.
    const bump = await db.transaction()
    try {
      await bump.rawQuery('lock table catalog_state in access exclusive mode')
      const during = Promise.resolve(get())
      await until(
        async () =>
          Number(
            (
              await db
                .from('pg_stat_activity')
                .where('wait_event_type', 'Lock')
                .where('wait_event', 'relation')
                .count('* as total')
                .first()
            ).total
          ),
        (total) => total >= 1
      )
      // The import's data commits, then its revision bump.
      await db
        .from('brands')
        .where('id', id)
        .update({ name: `${name} II` })
      await bump.rawQuery(
        'update catalog_state set revision = revision + 1, changed_at = now() where id = 1'
      )
      await bump.commit()

      const overlapped = await during
      const after = await get()
      assert.notEqual(overlapped.header('etag'), before.header('etag'))
      assert.equal(overlapped.header('etag'), after.header('etag'))
      assert.deepEqual(overlapped.body(), after.body(), 'one ETag, one body')
      assert.equal(after.body().Nombre, `${name} II`)
      const revalidated = await get().header('If-None-Match', overlapped.header('etag')!)
      revalidated.assertStatus(304)
    } finally {
      if (!bump.isCompleted) await bump.rollback()
      // Leave the shared catalogue fixture as other tests expect it.
      await db.from('brands').where('id', id).delete()
    }
  })
})
