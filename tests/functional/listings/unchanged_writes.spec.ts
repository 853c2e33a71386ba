/*
 * A write that changes nothing (docs/design.md §19): a PUT or PATCH with the
 * values the listing already has answers 200 with the same ETag and revision
 * and writes no row version (its xmin stays); one changed value next to
 * unchanged ones moves the revision by exactly one.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { listingBody, setup } from './support.js'

/** The row version PostgreSQL holds: any UPDATE, even of equal values, gives a new xmin. */
async function rowVersion(externalId: string) {
  const row = await db
    .from('listings')
    .where('external_id', externalId)
    .select(db.raw('xmin::text as xmin'), 'revision')
    .firstOrFail()
  return { xmin: row.xmin as string, revision: row.revision as number }
}

async function created(client: any) {
  const ctx = await setup()
  const body = listingBody({ Adelanto: { Moneda: 'USD', Importe: 1000 } })
  const response = await client.post(ctx.base).bearerToken(ctx.token).json(body)
  response.assertStatus(201)
  const { ExternalId: _e, Marca: _m, Modelo: _o, Version: _v, ...edit } = body
  /** A PUT or PATCH of the created listing, conditional when `ifMatch` is given. */
  const write = (method: 'put' | 'patch', json: object, ifMatch?: string) => {
    const request = client[method](ctx.href(body.ExternalId)).bearerToken(ctx.token)
    return (ifMatch ? request.header('If-Match', ifMatch) : request).json(json)
  }
  return { ctx, body, edit, write, etag: response.header('etag') as string }
}

test.group('Listings: a write that changes nothing', () => {
  test('PUT with the values it has: 200, same ETag and revision, no UPDATE', async ({
    client,
    assert,
  }) => {
    const { body, edit, write, etag } = await created(client)
    const before = await rowVersion(body.ExternalId)
    const put = await write('put', edit, etag)
    put.assertStatus(200)
    assert.equal(put.header('etag'), etag)
    assert.deepEqual(await rowVersion(body.ExternalId), before)

    // The other side: one value changed moves the revision by one.
    const changed = await write('put', { ...edit, Color: 'Rojo' }, etag)
    changed.assertStatus(200)
    assert.notEqual(changed.header('etag'), etag)
    assert.equal((await rowVersion(body.ExternalId)).revision, before.revision + 1)
  })

  test('GET → PUT of the unchanged representation: same ETag, nothing written', async ({
    client,
    assert,
  }) => {
    const { ctx, body, write } = await created(client)
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    const before = await rowVersion(body.ExternalId)
    const put = await write('put', read.body())
    put.assertStatus(200)
    assert.equal(put.header('etag'), read.header('etag'))
    assert.deepEqual(put.body(), read.body())
    assert.deepEqual(await rowVersion(body.ExternalId), before)
  })

  test('PATCH of the price it has: same ETag; a changed price next to an unchanged Adelanto: +1', async ({
    client,
    assert,
  }) => {
    const { body, write, etag } = await created(client)
    const before = await rowVersion(body.ExternalId)
    const same = await write('patch', {
      Precio: body.Precio,
      Adelanto: { Moneda: 'USD', Importe: 1000 },
      Activa: true,
    })
    same.assertStatus(200)
    assert.equal(same.header('etag'), etag)
    assert.deepEqual(await rowVersion(body.ExternalId), before)

    const moved = await write(
      'patch',
      { Precio: { Moneda: 'USD', Importe: 31000 }, Adelanto: { Moneda: 'USD', Importe: 1000 } },
      etag
    )
    moved.assertStatus(200)
    assert.deepEqual(moved.body().Precio, { Moneda: 'USD', Importe: 31000 })
    assert.deepEqual(moved.body().Adelanto, { Moneda: 'USD', Importe: 1000 })
    const after = await rowVersion(body.ExternalId)
    assert.equal(after.revision, before.revision + 1)
    assert.equal(moved.header('etag'), etag.replace(/\.\d+"$/, `.${after.revision}"`))
  })
})
