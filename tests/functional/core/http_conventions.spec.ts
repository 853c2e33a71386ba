import { test } from '@japa/runner'
import testUtils from '@adonisjs/core/services/test_utils'
import { createCaller, forgetCredentials, issueToken } from '#tests/helpers/apps'
import { raw } from '#tests/helpers/http'
import { settings } from '#core/settings'
import HttpExceptionHandler from '#core/http/exception_handler'

function assertProblem(assert: any, response: any, status: number) {
  response.assertStatus(status)
  assert.match(response.header('content-type')!, /^application\/problem\+json/)
  const body = response.body()
  assert.equal(body.Status, status)
  assert.equal(body.Type, `https://httpstatuses.io/${status}`)
  assert.isString(body.Title)
  assert.isString(body.Detail)
  assert.isString(body.Instance)
  assert.equal(body.Extensions.TraceId, response.header('x-request-id'))
  return body
}

test.group('Authentication', () => {
  test('no token → 401 problem with WWW-Authenticate: Bearer', async ({ client, assert }) => {
    const response = await client.get('/v3')
    const body = assertProblem(assert, response, 401)
    assert.match(response.header('www-authenticate')!, /^Bearer/)
    assert.equal(body.Instance, '/v3')
  })

  test('a wrong or malformed token → 401; a valid one passes', async ({ client, assert }) => {
    const { token } = await createCaller()
    for (const bad of [
      token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a'),
      'dla_nope',
      'garbage',
    ]) {
      assertProblem(assert, await client.get('/v3').bearerToken(bad), 401)
    }
    ;(await client.get('/v3').header('Authorization', `Basic ${token}`)).assertStatus(401)
    ;(await client.get('/v3').bearerToken(token)).assertStatus(200)
  })

  test('a second token works and the first keeps working', async ({ client }) => {
    const { app, token } = await createCaller()
    const second = await issueToken(app.id)
    ;(await client.get('/v3').bearerToken(second.token)).assertStatus(200)
    ;(await client.get('/v3').bearerToken(token)).assertStatus(200)
  })

  test('a revoked token is refused once the credential memory lapses', async ({ client }) => {
    const { app, token } = await createCaller()
    ;(await client.get('/v3').bearerToken(token)).assertStatus(200)
    const { default: db } = await import('@adonisjs/lucid/services/db')
    await db.from('app_tokens').where('tokenable_id', app.id).delete()
    await forgetCredentials()
    ;(await client.get('/v3').bearerToken(token)).assertStatus(401)
  })

  test('tokens are stored hashed, never in clear', async ({ assert }) => {
    const { app, token } = await createCaller()
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const rows = await db.from('app_tokens').where('tokenable_id', app.id)
    assert.lengthOf(rows, 1)
    const secret = token.split('.').pop()!
    assert.notInclude(JSON.stringify(rows), secret)
  })
})

test.group('Routing errors', () => {
  test('unknown route → 404 problem', async ({ client, assert }) => {
    const { token } = await createCaller()
    const body = assertProblem(
      assert,
      await client.get('/v3/no-such-thing').bearerToken(token),
      404
    )
    assert.equal(body.Instance, '/v3/no-such-thing')
    assertProblem(assert, await client.get('/nothing-here'), 404)
  })

  test('wrong method → 405 with Allow', async ({ client, assert }) => {
    const { token } = await createCaller()
    const response = await client.delete('/v3').bearerToken(token)
    assertProblem(assert, response, 405)
    assert.include(response.header('allow'), 'GET')
  })

  test('a body that is not JSON → 415; JSON types pass the check', async ({ client, assert }) => {
    const { token } = await createCaller()
    const plain = await raw('/v3', {
      method: 'POST',
      headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: 'hola',
    })
    assert.equal(plain.status, 415)
    assert.match(plain.headers.get('content-type')!, /^application\/problem\+json/)
    assert.equal(((await plain.json()) as any).Status, 415)
    const form = await client.post('/v3').bearerToken(token).form({ a: 1 })
    assertProblem(assert, form, 415)
    // A JSON body passes the type check and reaches routing (no POST on /v3 → 405).
    const json = await client.post('/v3').bearerToken(token).json({ a: 1 })
    assertProblem(assert, json, 405)
  })
})

test.group('Path parameters', () => {
  test('a malformed {adminmail} is 400 with Errors.adminmail in every module; a well-formed unknown one is not', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller('params', ['consultas:crear'])
    const paths = [
      '/v3/agencias/{m}',
      '/v3/operadores/{m}',
      '/v3/sucursales/{m}',
      '/v3/productos/{m}',
      '/v3/publicaciones/{m}',
      '/v3/consultas/{m}',
      '/v3/notificaciones/{m}',
      '/v3/visitas/{m}',
    ]
    for (const template of paths) {
      const bad = await client.get(template.replace('{m}', 'no-es-un-mail')).bearerToken(token)
      bad.assertStatus(400)
      assert.property(bad.body().Errors, 'adminmail', template)
      const unknown = await client
        .get(template.replace('{m}', 'nadie@ejemplo.com'))
        .bearerToken(token)
      assert.notEqual(unknown.status(), 400, template)
    }
  })
})

test.group('Body size', () => {
  /** A JSON body of exactly `size` bytes: `{"Relleno":"xxx…"}`. */
  const bodyOf = (size: number) =>
    JSON.stringify({ Relleno: 'x'.repeat(size - '{"Relleno":""}'.length) })

  test('up to 1 MiB is parsed; one byte more → 413 problem', async ({ assert }) => {
    const { token } = await createCaller()
    const send = (body: string) =>
      raw('/v3/agencias', {
        method: 'POST',
        headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
        body,
      })
    const atLimit = await send(bodyOf(1024 * 1024))
    assert.equal(atLimit.status, 400, 'a 1 MiB body reaches validation')
    const over = await send(bodyOf(1024 * 1024 + 1))
    assert.equal(over.status, 413)
    assert.match(over.headers.get('content-type')!, /^application\/problem\+json/)
    assert.equal(((await over.json()) as any).Status, 413)
  })
})

test.group('Accept negotiation', () => {
  test('full types, reference type, q-values and wildcards', async ({ client, assert }) => {
    const { token } = await createCaller()
    const cases: Array<[string | null, string]> = [
      [null, 'application/json'],
      ['application/json', 'application/json'],
      ['text/json', 'text/json'],
      ['application/vnd.service.entry+json', 'application/vnd.service.entry+json'],
      ['application/vnd.service.ref+json', 'application/vnd.service.ref+json'],
      ['*/*', 'application/json'],
      ['application/*', 'application/json'],
      [
        'application/json;q=0.5, application/vnd.service.ref+json',
        'application/vnd.service.ref+json',
      ],
      ['application/vnd.service.ref+json;q=0.2, application/json;q=0.9', 'application/json'],
    ]
    for (const [accept, expected] of cases) {
      const request = client.get('/v3').bearerToken(token)
      if (accept) request.header('Accept', accept)
      const response = await request
      response.assertStatus(200)
      assert.equal(response.header('content-type'), `${expected}; charset=utf-8`, String(accept))
      assert.equal(response.header('vary'), 'Accept')
      const body = JSON.parse(response.text())
      if (expected.includes('ref')) assert.deepEqual(body, { href: '/v3', title: body.title })
      else assert.property(body, 'Marcas')
    }
  })

  test('nothing acceptable → 406 problem', async ({ client, assert }) => {
    const { token } = await createCaller()
    for (const accept of ['text/html', 'application/xml', 'application/json;q=0']) {
      const response = await client.get('/v3').bearerToken(token).header('Accept', accept)
      assertProblem(assert, response, 406)
    }
  })
})

test.group('Rate limit', (group) => {
  const original = settings.rateLimitPerMinute
  group.each.teardown(() => {
    settings.rateLimitPerMinute = original
  })

  test('per app: the request over the limit → 429 with Retry-After; other apps unaffected', async ({
    client,
    assert,
  }) => {
    settings.rateLimitPerMinute = 3
    const { token } = await createCaller('limited')
    const { token: other } = await createCaller('other')
    for (let i = 0; i < 3; i++) (await client.get('/v3').bearerToken(token)).assertStatus(200)
    const limited = await client.get('/v3').bearerToken(token)
    assertProblem(assert, limited, 429)
    assert.isAbove(Number(limited.header('retry-after')), 0)
    ;(await client.get('/v3').bearerToken(other)).assertStatus(200)
  })
})

test.group('Unexpected errors', () => {
  test('→ 500 problem without message or stack', async ({ assert }) => {
    const ctx = await testUtils.createHttpContext()
    const handler = new HttpExceptionHandler()
    await handler.handle(new Error('secret database detail at /srv/app.ts:12'), ctx)
    const response = ctx.response
    assert.equal(response.getStatus(), 500)
    assert.match(String(response.getHeader('content-type')), /^application\/problem\+json/)
    const text = String(response.getBody())
    const body = JSON.parse(text)
    assert.equal(body.Status, 500)
    assert.notInclude(text, 'secret database detail')
    assert.notInclude(text, 'app.ts')
    assert.notProperty(body, 'stack')
  })
})

test.group('Request ids and health', () => {
  test('every response carries X-Request-Id; a client id is kept', async ({ client, assert }) => {
    const generated = await client.get('/health/live')
    assert.isString(generated.header('x-request-id'))
    const kept = await client.get('/health/live').header('X-Request-Id', 'abc-123')
    assert.equal(kept.header('x-request-id'), 'abc-123')
  })

  test('GET /health/live and /health/ready need no token', async ({ client, assert }) => {
    const live = await client.get('/health/live')
    live.assertStatus(200)
    assert.deepEqual(live.body(), { Estado: 'ok' })
    const ready = await client.get('/health/ready')
    ready.assertStatus(200)
    assert.equal(ready.body().Estado, 'ok')
    assert.equal(ready.body().Chequeos.database.Estado, 'ok')
    assert.equal(ready.body().Chequeos.jobs.Estado, 'ok')
  })
})
