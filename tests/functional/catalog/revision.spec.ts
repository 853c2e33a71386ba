/*
 * The catalogue revision behind every ETag: requests asking while a read is on
 * its way share it (it was sent before they asked); a later one reads again.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import CatalogRevision from '#catalog/services/catalog_revision'

test.group('Catalogue: revision reads', () => {
  test('concurrent askers share one read; the next read sees a bump', async ({ assert }) => {
    const revision = await app.container.make(CatalogRevision)
    const first = revision.current()
    assert.strictEqual(revision.current(), first, 'a read on its way is shared')
    const before = Number(await first)

    await db.rawQuery('update catalog_state set revision = revision + 1 where id = 1')
    const next = revision.current()
    assert.notStrictEqual(next, first, 'a settled read is not reused')
    assert.equal(await next, String(before + 1))
  })
})
