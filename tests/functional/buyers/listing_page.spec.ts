/*
 * GET /autos/{slug}: the public page of a listing (states, content, headers,
 * caching) and the visits its views count.
 */
import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { BROWSER_UA, get, openForm, visitor } from '#tests/helpers/buyers'
import { today } from '#buyers/services/visit_clock'

async function world(listing: Record<string, unknown> = {}) {
  const { app, token } = await createCaller('Portal')
  const fixture = await createAgency(app, { tradeName: 'Automotores del Sur' })
  const snapshot = await createListing(app, fixture, listing)
  return { app, token, fixture, listing: snapshot, path: `/autos/${snapshot.slug}` }
}

test.group('Listing page', () => {
  test('an active listing renders its page in Spanish with the inquiry form', async ({
    client,
    assert,
  }) => {
    const { listing, path } = await world({
      Precio: { Moneda: 'USD', Importe: 32500 },
      Color: 'Gris plata',
      Descripcion: 'Unidad 0 km.\nEntrega inmediata.',
    })
    const response = await get(client, path, visitor())
    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^text\/html; charset=utf-8/)
    const html = response.text()
    assert.include(html, '<html lang="es">')
    assert.match(
      html,
      /<title>Toyota Corolla 2\.0 XEI CVT \d{4} — US\$\s?32\.500 \| [^<]+<\/title>/
    )
    assert.include(html, '<meta property="og:title" content="Toyota Corolla 2.0 XEI CVT')
    assert.include(
      html,
      `<meta property="og:url" content="http://127.0.0.1:${process.env.PORT}/autos/${listing.slug}">`
    )
    assert.include(html, '<meta name="description"')
    for (const text of [
      'Automotores del Sur',
      'Gris plata',
      'Transmisión',
      'CVT',
      'Combustible',
      'Nafta',
      '0 km',
      'Unidad 0 km.',
    ]) {
      assert.include(html, text)
    }
    // The form: every field labelled, CSRF token, honeypot kept away from people.
    for (const field of ['Nombre', 'Apellido', 'Email', 'Telefono', 'Interes', 'Comentario']) {
      assert.match(html, new RegExp(`<label for="campo-${field}">`))
      assert.match(html, new RegExp(`id="campo-${field}" name="${field}"`))
    }
    assert.match(html, /name='_csrf' value='[^']+'/)
    assert.match(html, /<div class="trap" aria-hidden="true">/)
    assert.include(html, `action="/autos/${listing.slug}/consultas#consulta"`)
    // No script, no third-party resource.
    assert.notInclude(html, '<script')
    assert.notMatch(html, /(src|href)="https?:\/\/(?!127\.0\.0\.1)/)
  })

  test('security and cache headers; the stylesheet is served by the module', async ({
    client,
    assert,
  }) => {
    const { path } = await world()
    const response = await get(client, path, visitor())
    response.assertStatus(200)
    assert.equal(response.header('cache-control'), 'private, no-cache')
    assert.match(response.header('etag') ?? '', /^"[\w-]+"$/)
    assert.include(response.header('content-security-policy') ?? '', "default-src 'none'")
    assert.equal(response.header('x-frame-options'), 'DENY')
    assert.equal(response.header('x-content-type-options'), 'nosniff')

    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(response.text())![1]
    const css = await client.get(href)
    css.assertStatus(200)
    assert.match(css.header('content-type') ?? '', /^text\/css/)
    assert.include(css.header('cache-control') ?? '', 'immutable')
    assert.include(css.text(), '.price{')
  })

  test('answers 304 to the same visitor while nothing changed', async ({ client, assert }) => {
    const { path } = await world()
    const { page, who } = await openForm(client, path)
    const etag = page.header('etag')!
    const again = await get(client, path, who).header('If-None-Match', etag)
    again.assertStatus(304)
    assert.equal(again.text(), '')
    // Another session holds another CSRF secret: it gets the full page.
    const stranger = await get(client, path, visitor()).header('If-None-Match', etag)
    stranger.assertStatus(200)
  })

  test('a change of the listing changes the ETag; suspending it makes the page 410 at once', async ({
    client,
    assert,
  }) => {
    const { token, fixture, listing, path } = await world({
      Precio: { Moneda: 'USD', Importe: 30000 },
    })
    const { page, who } = await openForm(client, path)
    const etag = page.header('etag')!
    const api = `/v3/publicaciones/${fixture.agency.adminMail}/${listing.externalId}`
    ;(
      await client
        .patch(api)
        .bearerToken(token)
        .json({ Precio: { Moneda: 'USD', Importe: 28500 } })
    ).assertStatus(200)
    const changed = await get(client, path, who).header('If-None-Match', etag)
    changed.assertStatus(200)
    assert.notEqual(changed.header('etag'), etag)
    assert.match(changed.text(), /US\$\s?28\.500/)

    ;(await client.patch(`${api}/suspender`).bearerToken(token)).assertStatus(200)
    const gone = await get(client, path, who).header('If-None-Match', changed.header('etag')!)
    gone.assertStatus(410)
  })

  test("the Publicacion's `publica` link is this page", async ({ client, assert }) => {
    const { token, fixture, listing, path } = await world()
    const api = await client
      .get(`/v3/publicaciones/${fixture.agency.adminMail}/${listing.externalId}`)
      .bearerToken(token)
    api.assertStatus(200)
    assert.equal(api.body()._links.publica.href, path)
    ;(await get(client, api.body()._links.publica.href, visitor())).assertStatus(200)
  })

  test('a suspended listing is 410 with a friendly page', async ({ client, assert }) => {
    const { path } = await world({ Activa: false })
    const response = await get(client, path, visitor())
    response.assertStatus(410)
    assert.match(response.header('content-type') ?? '', /^text\/html/)
    assert.include(response.text(), 'Esta publicación ya no está disponible')
    assert.notInclude(response.text(), 'name="Nombre"')
  })

  test('an archived listing is 410 with a friendly page', async ({ client, assert }) => {
    const { path } = await world({ Archivada: true })
    const response = await get(client, path, visitor())
    response.assertStatus(410)
    assert.include(response.text(), 'Esta publicación ya no está disponible')
  })

  test('an unknown listing is 404 with a friendly page', async ({ client, assert }) => {
    const response = await get(client, '/autos/no-existe-este-auto-123', visitor())
    response.assertStatus(404)
    assert.match(response.header('content-type') ?? '', /^text\/html/)
    assert.include(response.text(), 'No encontramos esta página')
    assert.include(response.text(), '<html lang="es">')
  })
})

test.group('Listing page visits', () => {
  test('views count once per visitor and day; robots are not counted', async ({
    client,
    assert,
  }) => {
    const { token, fixture, listing, path } = await world()
    const ana = visitor()
    const beto = visitor()
    await get(client, path, ana)
    await get(client, path, ana) // the same person again today
    await get(client, path, { ...ana, cookie: undefined }) // even without the session cookie
    await get(client, path, beto)
    await get(
      client,
      path,
      visitor('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')
    )
    await get(client, path, visitor('curl/8.5.0'))
    await client
      .head(path)
      .header('User-Agent', BROWSER_UA)
      .header('X-Forwarded-For', '198.51.100.77')

    const report = await client
      .get(`/v3/visitas/${fixture.agency.adminMail}`)
      .qs({ externalid: listing.externalId })
      .bearerToken(token)
    report.assertStatus(200)
    assert.deepEqual(
      report.body()._entries.map((e: any) => [e.ExternalId, e.Fecha, e.Visitas]),
      [[listing.externalId, today(), 2]]
    )
  })

  test('views of suspended or unknown listings are not counted', async ({ client, assert }) => {
    const { token, fixture, listing, path } = await world({ Activa: false })
    await get(client, path, visitor())
    const report = await client
      .get(`/v3/visitas/${fixture.agency.adminMail}`)
      .qs({ externalid: listing.externalId })
      .bearerToken(token)
    assert.deepEqual(report.body()._entries, [])
  })
})
