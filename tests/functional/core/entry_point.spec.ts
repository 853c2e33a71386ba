import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'

test.group('GET /v3 entry point', () => {
  test('lists the entry points of docs/spec.md §2.15 with an ETag', async ({ client, assert }) => {
    const { token } = await createCaller()
    const response = await client.get('/v3').bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.header('content-type'), 'application/json; charset=utf-8')
    assert.equal(response.header('vary'), 'Accept')
    assert.match(response.header('etag')!, /^"[^"]+"$/)
    const body = response.body()
    for (const group of [
      'Agencias',
      'Regiones',
      'Ciudades',
      'Monedas',
      'Propulsiones',
      'Carrocerias',
      'Marcas',
      'Modelos',
      'Versiones',
      'AppNotificaciones',
    ]) {
      assert.properties(body[group], ['_links'], group)
      assert.isString(body[group]._links.self.href, group)
    }
    assert.deepEqual(body._links.self, { href: '/v3' })
    assert.deepEqual(body.Marcas._links.self, {
      href: '/v3/marcas{?q,soloMercadoNuevos}',
      templated: true,
    })
  })

  test('answers 304 to a matching If-None-Match, weak or strong', async ({ client, assert }) => {
    const { token } = await createCaller()
    const first = await client.get('/v3').bearerToken(token)
    const etag = first.header('etag')!
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await client.get('/v3').bearerToken(token).header('If-None-Match', header)
      again.assertStatus(304)
      assert.equal(again.header('etag'), etag)
      assert.equal(again.text(), '')
    }
    const stale = await client.get('/v3').bearerToken(token).header('If-None-Match', '"stale"')
    stale.assertStatus(200)
  })
})

test.group("GET /v3 links the calling app's own resources", () => {
  test('aplicacion, credenciales, eventos and consultas (templated by adminmail) lead where they say', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller('Linked app', ['consultas:crear'])
    const { agency } = await createAgency(app)
    const links = (await client.get('/v3').bearerToken(token)).body()._links
    assert.deepEqual(links.aplicacion, { href: '/v3/aplicacion' })
    assert.deepEqual(links.credenciales, { href: '/v3/credenciales' })
    assert.deepEqual(links.eventos, { href: '/v3/eventos{?desde,topico}', templated: true })
    assert.deepEqual(links.consultas, {
      href: '/v3/consultas/{adminmail}{?operador,externalid,desde,hasta,pagina}',
      templated: true,
    })
    // RFC 6570 expansion: a path variable substituted, unset query variables dropped.
    const expand = (template: string, vars: Record<string, string> = {}) =>
      template
        .replace(/\{\?[^}]*\}/g, '')
        .replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(vars[name]))
    for (const href of [
      links.aplicacion.href,
      links.credenciales.href,
      expand(links.eventos.href),
      expand(links.consultas.href, { adminmail: agency.adminMail }),
    ])
      (await client.get(href).bearerToken(token)).assertStatus(200)
  })

  test('an agency links its privacy preferences, which answer', async ({ client, assert }) => {
    const { app, token } = await createCaller('Privacy link app')
    const { agency } = await createAgency(app)
    const body = (await client.get(`/v3/agencias/${agency.adminMail}`).bearerToken(token)).body()
    assert.deepEqual(body._links.privacidad, { href: `/v3/privacidad/${agency.adminMail}` })
    ;(await client.get(body._links.privacidad.href).bearerToken(token)).assertStatus(200)
  })
})
