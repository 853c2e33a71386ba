import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'

const URL_TOPIC = '/v3/appnotificaciones/invitaciones'
const REF = 'application/vnd.service.ref+json'

const valid = (overrides: Record<string, unknown> = {}) => ({
  Callback: 'https://hooks.example.com/app-events',
  Secret: 'a-secret-of-sixteen-plus',
  Description: 'Altas de agencias',
  Activo: true,
  HeaderCustom01: { Name: 'Authorization', Value: 'Bearer xyz' },
  HeaderCustom02: null,
  HeaderCustom03: { Name: 'X-Tenant', Value: 'acme' },
  ...overrides,
})

test.group('App notifications: subscriptions', (group) => {
  const initial = settings.outboundAllowPrivate
  group.each.teardown(() => {
    settings.outboundAllowPrivate = initial
  })

  test('the entry point link resolves and lists the topics, an unset one linked for PUT', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const entry = await client.get('/v3').bearerToken(token)
    const href = entry.body().AppNotificaciones._links.self.href
    assert.equal(href, '/v3/appnotificaciones')
    const list = await client.get(href).bearerToken(token)
    list.assertStatus(200)
    assert.deepEqual(list.body(), {
      _links: {
        self: { href: '/v3/appnotificaciones' },
        invitaciones: { href: URL_TOPIC, method: 'PUT' },
        publicaciones: { href: '/v3/appnotificaciones/publicaciones', method: 'PUT' },
        consultas: { href: '/v3/appnotificaciones/consultas', method: 'PUT' },
        entregas: { href: '/v3/appnotificaciones/entregas', method: 'PUT' },
      },
      _entries: [],
    })
  })

  test('GET of an unset topic is 404; unknown topics are 404 for every method', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const unset = await client.get(URL_TOPIC).bearerToken(token)
    unset.assertStatus(404)
    assert.equal(unset.header('content-type'), 'application/problem+json; charset=utf-8')
    const unknown = '/v3/appnotificaciones/novedades'
    await client
      .get(unknown)
      .bearerToken(token)
      .then((r) => r.assertStatus(404))
    await client
      .post(unknown)
      .bearerToken(token)
      .json(valid())
      .then((r) => r.assertStatus(404))
    await client
      .put(unknown)
      .bearerToken(token)
      .json(valid())
      .then((r) => r.assertStatus(404))
  })

  test('POST creates: 201, Location, both representations; the Secret is never echoed', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const created = await client.post(URL_TOPIC).bearerToken(token).json(valid())
    created.assertStatus(201)
    assert.equal(created.header('location'), `${settings.publicUrl}${URL_TOPIC}`)
    assert.deepEqual(created.body(), {
      Callback: 'https://hooks.example.com/app-events',
      Secret: null,
      SecretConfigurado: true,
      Description: 'Altas de agencias',
      Activo: true,
      HeaderCustom01: { Name: 'Authorization', Value: 'Bearer xyz' },
      HeaderCustom02: null,
      HeaderCustom03: { Name: 'X-Tenant', Value: 'acme' },
      _links: { self: { href: URL_TOPIC }, edit: { href: URL_TOPIC, method: 'PUT' } },
    })
    assert.notInclude(created.text(), 'a-secret-of-sixteen-plus')

    const read = await client.get(URL_TOPIC).bearerToken(token)
    read.assertStatus(200)
    assert.deepEqual(read.body(), created.body())
    assert.notInclude(read.text(), 'a-secret-of-sixteen-plus')

    const reference = await client.get(URL_TOPIC).bearerToken(token).header('Accept', REF)
    reference.assertStatus(200)
    assert.equal(reference.header('content-type'), `${REF}; charset=utf-8`)
    assert.deepEqual(reference.body(), {
      href: URL_TOPIC,
      title: 'Notificaciones de invitaciones',
      Topico: 'invitaciones',
      Activo: true,
    })

    const list = await client.get('/v3/appnotificaciones').bearerToken(token)
    assert.deepEqual(list.body()._links.invitaciones, { href: URL_TOPIC })
    assert.deepEqual(list.body()._entries, [created.body()])
    const refList = await client
      .get('/v3/appnotificaciones')
      .bearerToken(token)
      .header('Accept', REF)
    assert.deepEqual(refList.body()._entries, [reference.body()])

    const stored = await db
      .from('app_webhooks')
      .where('callback', 'https://hooks.example.com/app-events')
      .first()
    assert.notEqual(stored.secret, 'a-secret-of-sixteen-plus')
    assert.notInclude(stored.secret, 'a-secret-of-sixteen-plus')
  })

  test('POST on an existing subscription is 409; PUT replaces it', async ({ client, assert }) => {
    const { token } = await createCaller()
    await client
      .post(URL_TOPIC)
      .bearerToken(token)
      .json(valid())
      .then((r) => r.assertStatus(201))
    const again = await client.post(URL_TOPIC).bearerToken(token).json(valid())
    again.assertStatus(409)
    assert.isArray(again.body().Errors?._)

    const replaced = await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: 'https://other.example.com/x', Activo: false })
    replaced.assertStatus(200)
    assert.containSubset(replaced.body(), {
      Callback: 'https://other.example.com/x',
      Secret: null,
      Description: null,
      Activo: false,
      HeaderCustom01: null,
      HeaderCustom02: null,
      HeaderCustom03: null,
    })
  })

  test('PUT creates when unset (200); Activo defaults to true', async ({ client, assert }) => {
    const { token } = await createCaller()
    const response = await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: 'https://a.example.com/' })
    response.assertStatus(200)
    assert.isTrue(response.body().Activo)
    await client
      .get(URL_TOPIC)
      .bearerToken(token)
      .then((r) => r.assertStatus(200))
  })

  test('Secret: null or absent keeps the stored one, "" removes it', async ({ client, assert }) => {
    const { app, token } = await createCaller()
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Secret: 'first-secret-0123456789' }))
    const secretOf = async () =>
      (await db.from('app_webhooks').where('app_id', app.id).first()).secret
    const sealed = await secretOf()
    assert.isString(sealed)
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Secret: null }))
      .then((r) => r.assertStatus(200))
    assert.equal(await secretOf(), sealed)
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Secret: undefined }))
      .then((r) => r.assertStatus(200))
    assert.equal(await secretOf(), sealed)
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Secret: '' }))
      .then((r) => r.assertStatus(200))
    assert.isNull(await secretOf())
  })

  test('limits, on both sides of each edge', async ({ client, assert }) => {
    const { token } = await createCaller()
    const base = 'https://hooks.example.com/'
    const cases: Array<[Record<string, unknown>, string | null]> = [
      [{ Callback: base + 'a'.repeat(1024 - base.length) }, null],
      [{ Callback: base + 'a'.repeat(1025 - base.length) }, 'Callback'],
      [{ Secret: 's'.repeat(16) }, null],
      [{ Secret: 's'.repeat(15) }, 'Secret'],
      [{ Secret: 's'.repeat(256) }, null],
      [{ Secret: 's'.repeat(257) }, 'Secret'],
      [{ Description: 'd'.repeat(200) }, null],
      [{ Description: 'd'.repeat(201) }, 'Description'],
      [{ HeaderCustom02: { Name: 'N'.repeat(64), Value: 'v'.repeat(1024) } }, null],
      [{ HeaderCustom02: { Name: 'N'.repeat(65), Value: 'v' } }, 'HeaderCustom02.Name'],
      [{ HeaderCustom02: { Name: 'X-A', Value: 'v'.repeat(1025) } }, 'HeaderCustom02.Value'],
      [{ HeaderCustom03: { Name: 'X-A', Value: 'a\r\nInjected: yes' } }, 'HeaderCustom03.Value'],
      [
        { HeaderCustom01: { Name: 'webhook-signature', Value: 'v1,forged' } },
        'HeaderCustom01.Name',
      ],
      [{ HeaderCustom01: { Name: 'Host', Value: 'internal' } }, 'HeaderCustom01.Name'],
      [{ HeaderCustom01: { Name: 'Content-Length', Value: '1' } }, 'HeaderCustom01.Name'],
    ]
    for (const [overrides, field] of cases) {
      const response = await client.put(URL_TOPIC).bearerToken(token).json(valid(overrides))
      if (field === null) {
        assert.equal(response.status(), 200, JSON.stringify(overrides).slice(0, 80))
      } else {
        assert.equal(response.status(), 400, field)
        assert.isArray(response.body().Errors?.[field], field)
      }
    }
  })

  test('400 for a missing or malformed Callback and a non-boolean Activo', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    for (const [body, field] of [
      [{ Activo: true }, 'Callback'],
      [valid({ Callback: 'not a url' }), 'Callback'],
      [valid({ Callback: '/relative/path' }), 'Callback'],
      [valid({ Callback: 'ftp://example.com/x' }), 'Callback'],
      [valid({ Callback: 'https://user:pw@example.com/x' }), 'Callback'],
      [valid({ Activo: 'yes' }), 'Activo'],
      [valid({ HeaderCustom01: 'Authorization: x' }), 'HeaderCustom01'],
    ] as const) {
      const response = await client.post(URL_TOPIC).bearerToken(token).json(body)
      response.assertStatus(400)
      assert.isArray(response.body().Errors?.[field], field)
    }
    await client
      .get(URL_TOPIC)
      .bearerToken(token)
      .then((r) => r.assertStatus(404))
  })

  test('an http Callback is accepted only while private targets are allowed', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    settings.outboundAllowPrivate = false
    const refused = await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Callback: 'http://hooks.example.com/' }))
    refused.assertStatus(400)
    assert.deepEqual(refused.body().Errors, {
      Callback: ['El campo Callback debe ser una URL https.'],
    })
    settings.outboundAllowPrivate = true
    const accepted = await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json(valid({ Callback: 'http://hooks.example.com/' }))
    accepted.assertStatus(200)
  })

  test('isolation: another app neither sees nor changes the subscription', async ({
    client,
    assert,
  }) => {
    const first = await createCaller('App A')
    const second = await createCaller('App B')
    await client
      .put(URL_TOPIC)
      .bearerToken(first.token)
      .json(valid({ Callback: 'https://a.example.com/' }))

    await client
      .get(URL_TOPIC)
      .bearerToken(second.token)
      .then((r) => r.assertStatus(404))
    const list = await client.get('/v3/appnotificaciones').bearerToken(second.token)
    assert.deepEqual(list.body()._entries, [])
    // POST by the second app creates its own rather than conflicting with the first app's.
    const own = await client
      .post(URL_TOPIC)
      .bearerToken(second.token)
      .json(valid({ Callback: 'https://b.example.com/' }))
    own.assertStatus(201)

    const firstView = await client.get(URL_TOPIC).bearerToken(first.token)
    assert.equal(firstView.body().Callback, 'https://a.example.com/')
    const secondView = await client.get(URL_TOPIC).bearerToken(second.token)
    assert.equal(secondView.body().Callback, 'https://b.example.com/')
  })

  test('other methods are 405 with Allow', async ({ client, assert }) => {
    const { token } = await createCaller()
    const response = await client.delete(URL_TOPIC).bearerToken(token)
    response.assertStatus(405)
    for (const method of ['GET', 'POST', 'PUT']) assert.include(response.header('allow'), method)
  })

  test('requires a token', async ({ client }) => {
    const response = await client.get(URL_TOPIC)
    response.assertStatus(401)
  })
})

test.group('App notifications: SecretConfigurado (docs/design.md §19)', () => {
  test('true with a Secret stored, false without; kept by null or absent, cleared by ""; never echoed', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const secret = 'a-secret-of-sixteen-plus'
    const put = async (body: Record<string, unknown>) => {
      const response = await client.put(URL_TOPIC).bearerToken(token).json(valid(body))
      response.assertStatus(200)
      assert.notInclude(response.text(), secret)
      assert.isNull(response.body().Secret)
      const read = await client.get(URL_TOPIC).bearerToken(token)
      assert.notInclude(read.text(), secret)
      assert.equal(read.body().SecretConfigurado, response.body().SecretConfigurado)
      return response.body().SecretConfigurado
    }
    assert.isFalse(await put({ Secret: undefined }), 'saved without a secret')
    assert.isTrue(await put({ Secret: secret }), 'saved with one')
    assert.isTrue(await put({ Secret: null }), 'null keeps it')
    assert.isTrue(await put({ Secret: undefined }), 'absent keeps it')
    assert.isFalse(await put({ Secret: '' }), 'an empty string removes it')
    const list = await client.get('/v3/appnotificaciones').bearerToken(token)
    assert.isFalse(list.body()._entries[0].SecretConfigurado)
  })
})
