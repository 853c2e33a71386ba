import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { grantAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { assertErrorKey, listingBody, setup, uniqueExternalId } from './support.js'

test.group('Listings: create and read', () => {
  test('POST creates: 201, Location, ETag and the full Publicacion', async ({ client, assert }) => {
    const ctx = await setup()
    const body = listingBody({
      RefStock: 'ST-1',
      Locacion: { Region: 'AR-B', Ciudad: 'La Plata', Direccion: 'Calle 7 1234' },
    })
    const response = await client.post(ctx.base).bearerToken(ctx.token).json(body)
    response.assertStatus(201)
    const publicacion = response.body()
    assert.equal(
      response.header('location')!,
      `http://127.0.0.1:${process.env.PORT}${ctx.href(body.ExternalId)}`
    )
    assert.match(response.header('etag')!, /^"\d+\.1"$/)
    assert.include(publicacion, {
      ExternalId: body.ExternalId,
      RefStock: 'ST-1',
      EstadoActual: 'Activa',
      Exposicion: 'Alta',
      OperadorResponsable: ctx.fixture.admin.email,
      Marca: 'Toyota',
      Modelo: 'Corolla',
      Version: '2.0 XEI CVT',
      Transmision: 'CVT',
      Propulsion: 'Nafta',
      Kilometraje: 0,
      Color: 'Gris plata',
      Telefono: ctx.fixture.admin.phones[0],
      CertificadoDeGarantiaUsado: null,
    })
    assert.deepEqual(publicacion.Precio, { Moneda: 'USD', Importe: 32500 })
    assert.isNull(publicacion.Adelanto)
    assert.deepEqual(publicacion.Fotos, [])
    assert.deepEqual(publicacion.Locacion, {
      Region: 'Buenos Aires',
      Ciudad: 'La Plata',
      Direccion: 'Calle 7 1234',
    })
    assert.deepInclude(publicacion.DatosTecnicosCustom, { Nombre: 'Potencia', Valor: '170 CV' })
    const self = ctx.href(body.ExternalId)
    assert.deepEqual(publicacion.Consultas, {
      _links: { self: { href: `/v3/consultas/${ctx.adminMail}?externalid=${body.ExternalId}` } },
    })
    assert.deepEqual(publicacion._links.self, { href: self })
    assert.deepEqual(publicacion._links.edit, { href: self, method: 'PUT' })
    assert.deepEqual(publicacion._links.precio, { href: self, method: 'PATCH' })
    assert.deepEqual(publicacion._links.suspender, { href: `${self}/suspender`, method: 'PATCH' })
    assert.notProperty(publicacion._links, 'activar')
    assert.deepEqual(publicacion._links.fotos, { href: `${self}/fotos` })
    assert.match(
      publicacion._links.publica.href,
      new RegExp(`^/autos/toyota-corolla-${body.VersionYear}-[a-z0-9]{8}$`)
    )
  })

  test('GET answers full and reference with the same ETag; If-None-Match → 304', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const body = listingBody()
    await client.post(ctx.base).bearerToken(ctx.token).json(body)
    // Path parts are case-insensitive.
    const path = `/v3/publicaciones/${ctx.adminMail.toUpperCase()}/${body.ExternalId.toUpperCase()}`
    const full = await client.get(path).bearerToken(ctx.token)
    full.assertStatus(200)
    assert.equal(full.body().ExternalId, body.ExternalId)
    const etag = full.header('etag')!

    const ref = await client
      .get(path)
      .bearerToken(ctx.token)
      .header('Accept', 'application/vnd.service.ref+json')
    ref.assertStatus(200)
    assert.match(ref.header('content-type')!, /application\/vnd\.service\.ref\+json/)
    assert.equal(ref.header('etag'), etag)
    assert.deepEqual(ref.body(), {
      etag,
      ExternalId: body.ExternalId,
      EstadoActual: 'Activa',
      href: ctx.href(body.ExternalId),
      title: `Toyota Corolla 2.0 XEI CVT ${body.VersionYear}`,
    })

    const cached = await client.get(path).bearerToken(ctx.token).header('If-None-Match', etag)
    cached.assertStatus(304)
    const stale = await client.get(path).bearerToken(ctx.token).header('If-None-Match', '"0.0"')
    stale.assertStatus(200)
  })

  test('the same ExternalId in the agency (any case) → 409', async ({ client, assert }) => {
    const ctx = await setup()
    const body = listingBody()
    ;(await client.post(ctx.base).bearerToken(ctx.token).json(body)).assertStatus(201)
    const again = await client
      .post(ctx.base)
      .bearerToken(ctx.token)
      .json({ ...body, ExternalId: body.ExternalId.toUpperCase() })
    again.assertStatus(409)
    assertErrorKey(assert, again.body(), 'ExternalId')
  })

  test('another app: its listing answers like a missing one (404 GET, 403 writes)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const other = await createCaller('Other app')
    // Not linked to the agency at all.
    ;(await client.get(ctx.href(listing.externalId)).bearerToken(other.token)).assertStatus(404)
    ;(
      await client.put(ctx.href(listing.externalId)).bearerToken(other.token).json({})
    ).assertStatus(403)
    ;(await client.post(ctx.base).bearerToken(other.token).json(listingBody())).assertStatus(403)
    // Linked to the agency, but the listing belongs to the first app.
    await grantAgency(other.app, ctx.adminMail)
    const missing = await client.get(ctx.href('does-not-exist')).bearerToken(other.token)
    const foreign = await client.get(ctx.href(listing.externalId)).bearerToken(other.token)
    foreign.assertStatus(404)
    assert.deepEqual(
      { ...foreign.body(), Instance: null, Extensions: null },
      { ...missing.body(), Instance: null, Extensions: null }
    )
    for (const [method, suffix] of [
      ['put', ''],
      ['patch', ''],
      ['patch', '/suspender'],
      ['patch', '/activar'],
      ['delete', ''],
    ] as const) {
      const response = await (client as any)
        [method](ctx.href(listing.externalId) + suffix)
        .bearerToken(other.token)
        .json({})
      response.assertStatus(403)
    }
    ;(
      await client.get(ctx.href(listing.externalId) + '/fotos').bearerToken(other.token)
    ).assertStatus(404)
    const list = await client.get(ctx.base).bearerToken(other.token)
    list.assertStatus(200)
    assert.equal(list.body().Total, 0)
  })

  test('unknown listing of an own agency: 404 on GET, 403 on writes', async ({ client }) => {
    const ctx = await setup()
    const externalId = uniqueExternalId()
    ;(await client.get(ctx.href(externalId)).bearerToken(ctx.token)).assertStatus(404)
    ;(await client.put(ctx.href(externalId)).bearerToken(ctx.token).json({})).assertStatus(403)
  })

  test('malformed path parameters → 400 with Errors', async ({ client }) => {
    const ctx = await setup()
    const bad = await client.get(ctx.href('con espacio')).bearerToken(ctx.token)
    bad.assertStatus(400)
    ;(await client.put(ctx.href('x')).bearerToken(ctx.token).json({})).assertStatus(400)
    ;(await client.get('/v3/publicaciones/no-es-un-mail').bearerToken(ctx.token)).assertStatus(400)
  })

  test('the non-templated links of a listing resolve with their stated method', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const body = (await client.get(ctx.href(listing.externalId)).bearerToken(ctx.token)).body()
    const own = ['self', 'edit', 'precio', 'fotos']
    for (const rel of own) {
      const { href, method = 'GET' } = body._links[rel]
      const response = await (client as any)
        [method.toLowerCase()](href)
        .bearerToken(ctx.token)
        .json({})
      assert.equal(response.status(), 200, `${rel} ${method} ${href}`)
    }
    // The state actions last: suspender, then activar (offered once suspended), then archivar.
    const suspended = await client.patch(body._links.suspender.href).bearerToken(ctx.token)
    suspended.assertStatus(200)
    ;(await client.patch(suspended.body()._links.activar.href).bearerToken(ctx.token)).assertStatus(
      200
    )
    ;(await client.delete(body._links.archivar.href).bearerToken(ctx.token)).assertStatus(200)
  })

  test('with no body, PUT keeps every field and Activa defaults to true', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture, {
      Activa: false,
      RefStock: 'A1',
      Descripcion: 'Hola',
    })
    const response = await client.put(ctx.href(listing.externalId)).bearerToken(ctx.token).json({})
    response.assertStatus(200)
    assert.include(response.body(), { EstadoActual: 'Activa', RefStock: 'A1', Descripcion: 'Hola' })
    const cleared = await client
      .put(ctx.href(listing.externalId))
      .bearerToken(ctx.token)
      .json({ RefStock: null, Descripcion: '', Locacion: null })
    assert.include(cleared.body(), { RefStock: null, Descripcion: null })
    assert.deepEqual(cleared.body().Locacion, { Region: null, Ciudad: null, Direccion: null })
  })
})
