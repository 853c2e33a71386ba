import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createListing } from '#tests/helpers/listings'
import { assertErrorKey, listingBody, setup } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

async function post(client: any, ctx: Ctx, overrides: Record<string, unknown> = {}) {
  const response = await client.post(ctx.base).bearerToken(ctx.token).json(listingBody(overrides))
  return response
}

test.group('Listings: state machine (docs/spec.md §3, docs/design.md §7)', () => {
  test('suspender and activar move between Activa and Suspendida; links follow the state', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const suspended = await client.patch(`${href}/suspender`).bearerToken(ctx.token)
    suspended.assertStatus(200)
    assert.equal(suspended.body().EstadoActual, 'Suspendida')
    assert.deepEqual(suspended.body()._links.activar, { href: `${href}/activar`, method: 'PATCH' })
    assert.notProperty(suspended.body()._links, 'suspender')
    assert.notProperty(suspended.body()._links, 'publica')
    const activated = await client.patch(`${href}/activar`).bearerToken(ctx.token)
    activated.assertStatus(200)
    assert.equal(activated.body().EstadoActual, 'Activa')
    assert.notEqual(activated.header('etag'), suspended.header('etag'))
  })

  test('PUT with Activa false/true and default true', async ({ client, assert }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const off = await client.put(href).bearerToken(ctx.token).json({ Activa: false, Color: 'Azul' })
    off.assertStatus(200)
    assert.include(off.body(), { EstadoActual: 'Suspendida', Color: 'Azul' })
    const on = await client.put(href).bearerToken(ctx.token).json({ Color: 'Rojo' })
    on.assertStatus(200)
    assert.include(on.body(), { EstadoActual: 'Activa', Color: 'Rojo' })
  })

  test('PATCH changes prices; Activa null leaves the state, false/true set it', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const priced = await client
      .patch(href)
      .bearerToken(ctx.token)
      .json({ Precio: { Moneda: 'ARS', Importe: 45000000 }, Cuota: null, Activa: null })
    priced.assertStatus(200)
    assert.deepEqual(priced.body().Precio, { Moneda: 'ARS', Importe: 45000000 })
    assert.equal(priced.body().EstadoActual, 'Activa')
    const off = await client.patch(href).bearerToken(ctx.token).json({ Activa: false })
    assert.equal(off.body().EstadoActual, 'Suspendida')
    assert.deepEqual(off.body().Precio, { Moneda: 'ARS', Importe: 45000000 })
    const kept = await client
      .patch(href)
      .bearerToken(ctx.token)
      .json({ Adelanto: { Moneda: 'USD', Importe: 5000 } })
    assert.equal(kept.body().EstadoActual, 'Suspendida')
    const on = await client.patch(href).bearerToken(ctx.token).json({ Activa: true })
    assert.equal(on.body().EstadoActual, 'Activa')
    const bad = await client
      .patch(href)
      .bearerToken(ctx.token)
      .json({ Precio: { Moneda: 'BRL', Importe: 1 } })
    bad.assertStatus(400)
    assertErrorKey(assert, bad.body(), 'Precio.Moneda')
  })

  test('DELETE archives; archived refuses every change with 409 and stays readable', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const archived = await client.delete(href).bearerToken(ctx.token)
    archived.assertStatus(200)
    assert.equal(archived.body().EstadoActual, 'Archivada')
    assert.notProperty(archived.body()._links, 'edit')
    for (const call of [
      () => client.put(href).bearerToken(ctx.token).json({ Activa: false }),
      () =>
        client
          .patch(href)
          .bearerToken(ctx.token)
          .json({ Precio: { Moneda: 'USD', Importe: 1 } }),
      () => client.patch(href).bearerToken(ctx.token).json({ Activa: null }),
      () => client.patch(`${href}/suspender`).bearerToken(ctx.token),
      () => client.patch(`${href}/activar`).bearerToken(ctx.token),
      () => client.delete(href).bearerToken(ctx.token),
    ]) {
      const response = await call()
      response.assertStatus(409)
      assertErrorKey(assert, response.body(), '_')
    }
    ;(await client.get(href).bearerToken(ctx.token)).assertStatus(200)
    // Archived listings leave the default list and show with estado=Archivada.
    const list = await client.get(ctx.base).bearerToken(ctx.token)
    assert.notInclude(
      list.body()._entries.map((entry: any) => entry.ExternalId),
      listing.externalId
    )
    const onlyArchived = await client.get(`${ctx.base}?estado=archivada`).bearerToken(ctx.token)
    assert.deepEqual(
      onlyArchived.body()._entries.map((entry: any) => entry.ExternalId),
      [listing.externalId]
    )
  })

  test('activation fails with 409 when the plan capacity is full (capacity 1: first / second)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 1, alta: 5, media: 5, baja: 5 } })
    ;(await post(client, ctx)).assertStatus(201)
    const second = await post(client, ctx)
    second.assertStatus(409)
    assert.match(second.body().Errors._[0], /admite 1 publicaciones activas/)
    // Created suspended it fits; activating it does not.
    const suspended = await post(client, ctx, { Activa: false })
    suspended.assertStatus(201)
    const href = ctx.href(suspended.body().ExternalId)
    for (const call of [
      () => client.patch(`${href}/activar`).bearerToken(ctx.token),
      () => client.put(href).bearerToken(ctx.token).json({ Activa: true }),
      () => client.patch(href).bearerToken(ctx.token).json({ Activa: true }),
    ]) {
      const response = await call()
      response.assertStatus(409)
      assertErrorKey(assert, response.body(), '_')
    }
  })

  test('activation fails with 409 when the agency or the operator is suspended', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({
      collaborators: ['vendedor.suspendido@example.com'.replace('@', `.${Date.now()}@`)],
    })
    const collaborator = ctx.fixture.collaborators[0]
    const listing = await createListing(ctx.app, ctx.fixture, {
      Activa: false,
      OperadorResponsable: collaborator.email,
    })
    const href = ctx.href(listing.externalId)
    await db.from('operators').where('id', collaborator.id).update({ suspended: true })
    const byOperator = await client.patch(`${href}/activar`).bearerToken(ctx.token)
    byOperator.assertStatus(409)
    assert.match(byOperator.body().Errors._[0], /operador responsable está suspendido/)
    await db.from('operators').where('id', collaborator.id).update({ suspended: false })
    await db.from('agencies').where('id', ctx.fixture.agency.id).update({ suspended: true })
    const byAgency = await client.patch(`${href}/activar`).bearerToken(ctx.token)
    byAgency.assertStatus(409)
    assert.match(byAgency.body().Errors._[0], /agencia está suspendida/)
    // Suspending is still possible, and so is activation once the agency is back.
    await db.from('agencies').where('id', ctx.fixture.agency.id).update({ suspended: false })
    ;(await client.patch(`${href}/activar`).bearerToken(ctx.token)).assertStatus(200)
  })

  test('Exposicion: the one asked while its quota has room, else the best level left; none left → 409', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 10, alta: 1, media: 1, baja: 0 } })
    const first = await post(client, ctx, { Exposicion: null })
    assert.equal(first.body().Exposicion, 'Alta')
    const second = await post(client, ctx, { Exposicion: 'Alta' })
    second.assertStatus(201)
    assert.equal(second.body().Exposicion, 'Media')
    const third = await post(client, ctx, { Exposicion: 'Baja' })
    third.assertStatus(409)
    // Freeing the Alta slot makes it available again.
    await client.patch(`${ctx.href(first.body().ExternalId)}/suspender`).bearerToken(ctx.token)
    const fourth = await post(client, ctx, { Exposicion: 'alta' })
    assert.equal(fourth.body().Exposicion, 'Alta')
  })

  test('OperadorResponsable: a collaborator is taken, anyone else keeps the current one', async ({
    client,
    assert,
  }) => {
    const email = `colab.${Date.now()}@example.com`
    const ctx = await setup({ collaborators: [{ email, phones: ['0351 444-1234'] }] })
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const moved = await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ OperadorResponsable: email.toUpperCase() })
    moved.assertStatus(200)
    assert.equal(moved.body().OperadorResponsable, email)
    // The phone follows the operator.
    assert.equal(moved.body().Telefono, '0351 444-1234')
    const kept = await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ OperadorResponsable: 'nadie@example.com' })
    assert.equal(kept.body().OperadorResponsable, email)
    const nulled = await client.put(href).bearerToken(ctx.token).json({ OperadorResponsable: null })
    assert.equal(nulled.body().OperadorResponsable, email)
  })

  test('GET list: paged envelope, filters operador and estado, pagina 99 / 100', async ({
    client,
    assert,
  }) => {
    const email = `colab.${Date.now()}@example.com`
    const ctx = await setup({ collaborators: [email] })
    const a = await createListing(ctx.app, ctx.fixture)
    const b = await createListing(ctx.app, ctx.fixture, {
      OperadorResponsable: email,
      Activa: false,
    })
    const all = await client.get(ctx.base).bearerToken(ctx.token)
    all.assertStatus(200)
    assert.include(all.body(), { Pagina: 1, Total: 2, PerPagina: 100 })
    assert.deepEqual(
      all.body()._entries.map((entry: any) => entry.ExternalId),
      [a.externalId, b.externalId]
    )
    assert.equal(all.body()._links.self.href, `${ctx.base}?pagina=1`)
    assert.equal(all.body()._links.page.href, `${ctx.base}{?operador,estado,pagina}`)
    const byOperator = await client.get(`${ctx.base}?operador=${email}`).bearerToken(ctx.token)
    assert.deepEqual(
      byOperator.body()._entries.map((entry: any) => entry.ExternalId),
      [b.externalId]
    )
    const active = await client.get(`${ctx.base}?estado=Activa`).bearerToken(ctx.token)
    assert.deepEqual(
      active.body()._entries.map((entry: any) => entry.ExternalId),
      [a.externalId]
    )
    const refs = await client
      .get(ctx.base)
      .bearerToken(ctx.token)
      .header('Accept', 'application/vnd.service.ref+json')
    assert.deepEqual(Object.keys(refs.body()._entries[0]).sort(), [
      'EstadoActual',
      'ExternalId',
      'etag',
      'href',
      'title',
    ])
    ;(await client.get(`${ctx.base}?pagina=99`).bearerToken(ctx.token)).assertStatus(200)
    const tooFar = await client.get(`${ctx.base}?pagina=100`).bearerToken(ctx.token)
    tooFar.assertStatus(400)
    assertErrorKey(assert, tooFar.body(), 'pagina')
    ;(await client.get(`${ctx.base}?estado=Borrada`).bearerToken(ctx.token)).assertStatus(400)
    ;(
      await client.get(`${ctx.base}?operador=nadie@example.com`).bearerToken(ctx.token)
    ).assertStatus(400)
    ;(
      await client.get(`/v3/publicaciones/nadie.${Date.now()}@example.com`).bearerToken(ctx.token)
    ).assertStatus(404)
  })
})

test.group('Listings: optimistic concurrency (docs/design.md §4)', () => {
  test('If-Match: matching → 200 and a new ETag; stale → 412; weak never matches; * matches', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const etag = (await client.get(href).bearerToken(ctx.token)).header('etag')!
    const ok = await client
      .put(href)
      .bearerToken(ctx.token)
      .header('If-Match', etag)
      .json({ Color: 'Verde' })
    ok.assertStatus(200)
    assert.notEqual(ok.header('etag'), etag)
    const stale = await client
      .put(href)
      .bearerToken(ctx.token)
      .header('If-Match', etag)
      .json({ Color: 'Negro' })
    stale.assertStatus(412)
    ;(
      await client.patch(`${href}/suspender`).bearerToken(ctx.token).header('If-Match', etag)
    ).assertStatus(412)
    ;(
      await client
        .patch(href)
        .bearerToken(ctx.token)
        .header('If-Match', `W/${ok.header('etag')}`)
        .json({})
    ).assertStatus(412)
    ;(
      await client.patch(href).bearerToken(ctx.token).header('If-Match', '*').json({})
    ).assertStatus(200)
    // Without If-Match the write proceeds.
    ;(await client.put(href).bearerToken(ctx.token).json({ Color: 'Blanco' })).assertStatus(200)
    assert.equal((await client.get(href).bearerToken(ctx.token)).body().Color, 'Blanco')
  })

  test('two concurrent writes with the same ETag: exactly one 200 and one 412', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    for (let round = 0; round < 5; round++) {
      const etag = (await client.get(href).bearerToken(ctx.token)).header('etag')!
      const responses = await Promise.all([
        client
          .put(href)
          .bearerToken(ctx.token)
          .header('If-Match', etag)
          .json({ Color: `A${round}` }),
        client
          .put(href)
          .bearerToken(ctx.token)
          .header('If-Match', etag)
          .json({ Color: `B${round}` }),
      ])
      assert.deepEqual(responses.map((response) => response.status()).sort(), [200, 412])
    }
  })

  test('concurrent writes without If-Match both apply (no lost revision)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const before = Number(
      /\.(\d+)"$/.exec((await client.get(href).bearerToken(ctx.token)).header('etag')!)![1]
    )
    const responses = await Promise.all([
      client
        .patch(href)
        .bearerToken(ctx.token)
        .json({ Precio: { Moneda: 'USD', Importe: 1 } }),
      client
        .patch(href)
        .bearerToken(ctx.token)
        .json({ Adelanto: { Moneda: 'USD', Importe: 2 } }),
    ])
    assert.deepEqual(
      responses.map((response) => response.status()),
      [200, 200]
    )
    const after = await client.get(href).bearerToken(ctx.token)
    assert.equal(Number(/\.(\d+)"$/.exec(after.header('etag')!)![1]), before + 2)
    assert.deepEqual(after.body().Precio, { Moneda: 'USD', Importe: 1 })
    assert.deepEqual(after.body().Adelanto, { Moneda: 'USD', Importe: 2 })
  })
})
