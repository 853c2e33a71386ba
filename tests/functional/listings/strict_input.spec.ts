/*
 * Strict input on listing writes (docs/design.md §19): a body member the
 * operation does not define is a 400 naming it, and nothing is written; the
 * members of the listing's own representation come back on its PUT unharmed.
 */
import { test } from '@japa/runner'
import { raw } from '#tests/helpers/http'
import { listingBody, setup, uniqueExternalId } from './support.js'

test.group('Listings: unknown body members', () => {
  test('POST with `precio` beside the known fields: 400 naming only `precio`, nothing created', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { Precio: price, ...body } = listingBody()
    const response = await client
      .post(ctx.base)
      .bearerToken(ctx.token)
      .json({ ...body, precio: price })
    response.assertStatus(400)
    assert.deepEqual(Object.keys(response.body().Errors), ['precio'])
    assert.match(response.body().Errors.precio[0], /Precio/)
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    read.assertStatus(404)

    // The same body with the member spelt right is created.
    const created = await client
      .post(ctx.base)
      .bearerToken(ctx.token)
      .json({ ...body, Precio: price })
    created.assertStatus(201)
  })

  test('nested unknown members are named by path: Locacion.Calle, DatosTecnicosCustom.0.x', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const response = await client
      .post(ctx.base)
      .bearerToken(ctx.token)
      .json(
        listingBody({
          Locacion: { Region: 'AR-B', Calle: 'Falsa 123' },
          DatosTecnicosCustom: [{ Nombre: 'Potencia', Valor: '170 CV', x: 1 }],
        })
      )
    response.assertStatus(400)
    assert.sameMembers(Object.keys(response.body().Errors), [
      'Locacion.Calle',
      'DatosTecnicosCustom.0.x',
    ])
  })

  test('PUT with `Colour`: 400 naming it, the listing unchanged (same ETag)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const body = listingBody()
    const created = await client.post(ctx.base).bearerToken(ctx.token).json(body)
    created.assertStatus(201)
    const response = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Color: 'Rojo', Colour: 'Red' })
    response.assertStatus(400)
    assert.deepEqual(Object.keys(response.body().Errors), ['Colour'])
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    assert.equal(read.header('etag'), created.header('etag'))
    assert.equal(read.body().Color, body.Color)
  })

  test('PATCH with a member of PUT only (Color): 400; with Precio alone: 200', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const body = listingBody()
    await client.post(ctx.base).bearerToken(ctx.token).json(body)
    const refused = await client
      .patch(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Precio: { Moneda: 'USD', Importe: 1 }, Color: 'Rojo' })
    refused.assertStatus(400)
    assert.deepEqual(Object.keys(refused.body().Errors), ['Color'])
    const accepted = await client
      .patch(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Precio: { Moneda: 'USD', Importe: 1 } })
    accepted.assertStatus(200)
  })

  test('GET → change → PUT of the whole representation round-trips', async ({ client, assert }) => {
    const ctx = await setup()
    const body = listingBody({
      ExternalId: uniqueExternalId('rt'),
      Locacion: { Region: 'AR-B', Ciudad: 'La Plata', Direccion: 'Calle 7 1234' },
      DatosTecnicosCustom: [{ Nombre: 'Potencia', Valor: '170 CV' }],
    })
    await client.post(ctx.base).bearerToken(ctx.token).json(body)
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    const representation = read.body()
    for (const member of ['_links', 'EstadoActual', 'Consultas', 'Marca', 'ExternalId'])
      assert.property(representation, member)

    const put = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .header('If-Match', read.header('etag')!)
      .json({ ...representation, Color: 'Rojo' })
    put.assertStatus(200)
    assert.equal(put.body().Color, 'Rojo')
    assert.deepEqual(put.body().Locacion, representation.Locacion)
    assert.equal(put.body().EstadoActual, 'Activa')

    // Members of the representation are accepted on PUT only, and only at their own level.
    const nested = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ ...put.body(), Locacion: { ...put.body().Locacion, Calle: 'x' } })
    nested.assertStatus(400)
    assert.deepEqual(Object.keys(nested.body().Errors), ['Locacion.Calle'])
    const patch = await client
      .patch(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Precio: put.body().Precio, EstadoActual: 'Activa' })
    patch.assertStatus(400)
    assert.deepEqual(Object.keys(patch.body().Errors), ['EstadoActual'])
  })
})

test.group('Listings: forbidden member names (docs/design.md §25)', () => {
  /** Posts a creation whose body is the text `body`: `__proto__` stays a member name. */
  const post = (ctx: Awaited<ReturnType<typeof setup>>, body: string) =>
    raw(ctx.base, {
      method: 'POST',
      headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'application/json' },
      body,
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }))
  const withMembers = (externalId: string, extra: string) =>
    `${JSON.stringify(listingBody({ ExternalId: externalId })).slice(0, -1)},${extra}}`

  test('__proto__, constructor, prototype: 400 keyed by the name at the top level and nested, nothing created', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const cases: Array<[string, string]> = [
      ['"__proto__":{"Precio":{"Moneda":"USD","Importe":1}}', '__proto__'],
      // The body parser alone would drop both silently.
      ['"constructor":{"prototype":{"x":1}}', 'constructor'],
      ['"prototype":1', 'prototype'],
      ['"\\u005f_proto__":{}', '__proto__'],
      ['"Locacion":{"Region":"AR-B","__proto__":{"x":1}}', 'Locacion.__proto__'],
      [
        '"DatosTecnicosCustom":[{"Nombre":"a","Valor":"b","constructor":1}]',
        'DatosTecnicosCustom.0.constructor',
      ],
    ]
    for (const [extra, key] of cases) {
      const externalId = uniqueExternalId()
      const refused = await post(ctx, withMembers(externalId, extra))
      assert.equal(refused.status, 400, extra)
      assert.deepEqual(Object.keys(refused.body.Errors), [key], extra)
      assert.match(refused.body.Errors[key][0], /no se admite como campo/)
      const read = await client.get(ctx.href(externalId)).bearerToken(ctx.token)
      read.assertStatus(404)
    }
    // The names as values are text like any other.
    const created = await post(
      ctx,
      JSON.stringify(listingBody({ Descripcion: '__proto__ constructor' }))
    )
    assert.equal(created.status, 201)
  })
})
