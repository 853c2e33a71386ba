import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'

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
