/*
 * Honest ETags (issue 28 item 3, docs/design.md §19) on the listing resource:
 * quoted tags match, stale ones answer 412 with the current ETag, a malformed
 * If-Match / If-None-Match is a 400 that names the header and says how to quote it.
 */
import { test } from '@japa/runner'
import { listingBody, setup } from '../listings/support.js'

async function listing(client: any) {
  const ctx = await setup()
  const body = listingBody()
  const created = await client.post(ctx.base).bearerToken(ctx.token).json(body)
  created.assertStatus(201)
  const path = ctx.href(body.ExternalId)
  return { ...ctx, path, etag: created.header('etag')! as string }
}

const patchPrice = (client: any, ctx: { path: string; token: string }, importe: number) =>
  client
    .patch(ctx.path)
    .bearerToken(ctx.token)
    .json({ Precio: { Moneda: 'USD', Importe: importe } })

test.group('ETags: If-Match on writes', () => {
  test('the quoted current tag → 200 and a new ETag; the same tag again (now stale) → 412', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    const ok = await patchPrice(client, ctx, 33000).header('If-Match', ctx.etag)
    ok.assertStatus(200)
    assert.notEqual(ok.header('etag'), ctx.etag)
    const stale = await patchPrice(client, ctx, 34000).header('If-Match', ctx.etag)
    stale.assertStatus(412)
    const put = await client
      .put(ctx.path)
      .bearerToken(ctx.token)
      .header('If-Match', ok.header('etag')!)
      .json({ Color: 'Rojo' })
    put.assertStatus(200)
  })

  test('a stale tag → 412 carrying the ETag a fresh GET gives; retrying with it → 200', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    ;(await patchPrice(client, ctx, 33000)).assertStatus(200)
    const stale = await patchPrice(client, ctx, 34000).header('If-Match', ctx.etag)
    stale.assertStatus(412)
    const fresh = await client.get(ctx.path).bearerToken(ctx.token)
    assert.equal(stale.header('etag'), fresh.header('etag'))
    assert.notEqual(stale.header('etag'), ctx.etag)
    ;(await patchPrice(client, ctx, 34000).header('If-Match', stale.header('etag')!)).assertStatus(
      200
    )
  })

  test('unquoted 2.6 → 400 naming If-Match with how to quote it; quoted → not a 400', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    const bare = ctx.etag.slice(1, -1)
    for (const request of [
      () => patchPrice(client, ctx, 33000),
      () => client.put(ctx.path).bearerToken(ctx.token).json({ Color: 'Rojo' }),
    ]) {
      const unquoted = await request().header('If-Match', bare)
      unquoted.assertStatus(400)
      assert.match(unquoted.header('content-type')!, /application\/problem\+json/)
      assert.deepEqual(Object.keys(unquoted.body().Errors), ['If-Match'])
      assert.include(unquoted.body().Errors['If-Match'][0], `"${bare}"`)
      assert.include(unquoted.body().Errors['If-Match'][0], 'comillas dobles')
    }
    // Nothing was written by the refused requests.
    const after = await client.get(ctx.path).bearerToken(ctx.token)
    assert.equal(after.header('etag'), ctx.etag)
    ;(await patchPrice(client, ctx, 33000).header('If-Match', `"${bare}"`)).assertStatus(200)
  })

  test('other malformed values → 400; a weak tag is well-formed but never matches → 412', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    for (const value of ['"unterminated', `${ctx.etag} junk`, `"x", *`, "'1.1'"]) {
      const response = await patchPrice(client, ctx, 33000).header('If-Match', value)
      response.assertStatus(400)
      assert.property(response.body().Errors, 'If-Match', value)
    }
    ;(await patchPrice(client, ctx, 33000).header('If-Match', `W/${ctx.etag}`)).assertStatus(412)
  })

  test('* passes; a list "x", "<current>" passes; a list of stale tags → 412', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    const star = await patchPrice(client, ctx, 33000).header('If-Match', '*')
    star.assertStatus(200)
    const current = star.header('etag')!
    const listed = await patchPrice(client, ctx, 34000).header('If-Match', `"x", ${current}`)
    listed.assertStatus(200)
    assert.notEqual(listed.header('etag'), current)
    // Empty list members are ignored (RFC 9110 §5.6.1).
    const spaced = await patchPrice(client, ctx, 35000).header(
      'If-Match',
      ` , "x",${listed.header('etag')} ,`
    )
    spaced.assertStatus(200)
    ;(await patchPrice(client, ctx, 36000).header('If-Match', `"x", ${current}`)).assertStatus(412)
  })
})

test.group('ETags: If-None-Match on reads', () => {
  test('quoted current tag → 304 with the ETag; stale → 200', async ({ client, assert }) => {
    const ctx = await listing(client)
    const cached = await client
      .get(ctx.path)
      .bearerToken(ctx.token)
      .header('If-None-Match', ctx.etag)
    cached.assertStatus(304)
    assert.equal(cached.header('etag'), ctx.etag)
    const stale = await client.get(ctx.path).bearerToken(ctx.token).header('If-None-Match', '"0.0"')
    stale.assertStatus(200)
  })

  test('W/ of the current tag → 304 (weak comparison); W/ of another → 200', async ({ client }) => {
    const ctx = await listing(client)
    ;(
      await client.get(ctx.path).bearerToken(ctx.token).header('If-None-Match', `W/${ctx.etag}`)
    ).assertStatus(304)
    ;(
      await client.get(ctx.path).bearerToken(ctx.token).header('If-None-Match', 'W/"0.0"')
    ).assertStatus(200)
  })

  test('* and a list holding the current tag → 304', async ({ client }) => {
    const ctx = await listing(client)
    for (const value of ['*', `"x", ${ctx.etag}`, `W/"x",W/${ctx.etag}`]) {
      ;(
        await client.get(ctx.path).bearerToken(ctx.token).header('If-None-Match', value)
      ).assertStatus(304)
    }
  })

  test('unquoted → 400 naming If-None-Match with how to quote it (weak form too)', async ({
    client,
    assert,
  }) => {
    const ctx = await listing(client)
    const bare = ctx.etag.slice(1, -1)
    for (const value of [bare, `W/${bare}`, `"x", ${bare}`]) {
      const response = await client
        .get(ctx.path)
        .bearerToken(ctx.token)
        .header('If-None-Match', value)
      response.assertStatus(400)
      assert.deepEqual(Object.keys(response.body().Errors), ['If-None-Match'])
      const [message] = response.body().Errors['If-None-Match']
      assert.include(message, 'comillas dobles')
      assert.include(message, 'W/"')
      assert.notExists(response.header('etag'))
    }
  })
})
