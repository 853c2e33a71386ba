import { test } from '@japa/runner'
import { streamedRoute } from '#core/http/streamed_body'
import router from '@adonisjs/core/services/router'
import { request as httpRequest } from 'node:http'
import { baseUrl, raw } from '#tests/helpers/http'
import { createCaller } from '#tests/helpers/apps'

/** Registered routes as `METHOD /path/{param}`, HEAD left out (it follows GET). */
function registeredRoutes(): string[] {
  const routes = Object.values(router.toJSON()).flat()
  return routes.flatMap((route) =>
    route.methods
      .filter((method) => method !== 'HEAD')
      .map(
        (method) =>
          `${method} ${route.pattern.replace(/:(\w+)\??/g, '{$1}').replace(/\/$/, '') || '/'}`
      )
  )
}

test.group('OpenAPI document', () => {
  test('documents exactly the registered routes', async ({ client, assert }) => {
    const response = await client.get('/v3/openapi.json')
    response.assertStatus(200)
    const document = response.body()
    assert.equal(document.openapi, '3.1.0')
    const documented = Object.entries(document.paths as Record<string, object>).flatMap(
      ([path, item]) =>
        Object.keys(item)
          .filter((key) => ['get', 'post', 'put', 'patch', 'delete', 'options'].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`)
    )
    const registered = registeredRoutes()
    assert.deepEqual(
      registered.filter((route) => !documented.includes(route)),
      [],
      'registered routes missing from the OpenAPI document'
    )
    assert.deepEqual(
      documented.filter((route) => !registered.includes(route)),
      [],
      'documented routes that are not registered'
    )
  })

  test('every $ref points at a declared schema', async ({ client, assert }) => {
    const document = (await client.get('/v3/openapi.json')).body()
    const refs = [
      ...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g),
    ].map((m) => m[1])
    const missing = [...new Set(refs)].filter((name) => !(name in document.components.schemas))
    assert.deepEqual(missing, [])
  })

  test('GET /docs renders the reference with locally served assets', async ({ client, assert }) => {
    const page = await client.get('/docs')
    page.assertStatus(200)
    assert.include(page.text(), '/docs/assets/swagger-ui-bundle.js')
    assert.notInclude(page.text(), 'https://')
    const bundle = await client.get('/docs/assets/swagger-ui-bundle.js')
    bundle.assertStatus(200)
    assert.match(bundle.header('content-type')!, /javascript/)
    ;(await client.get('/docs/assets/nope.js')).assertStatus(404)
  })
})

test.group('OpenAPI document: bodies refused before routing', () => {
  /** `[METHOD, path]` of every documented API operation that can carry a body. */
  async function bodyOperations(client: any): Promise<[string, string][]> {
    const document = (await client.get('/v3/openapi.json')).body()
    return Object.entries(document.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['post', 'put', 'patch', 'delete'].includes(key))
        .filter(() => path.startsWith('/v3'))
        .map((method): [string, string] => [method.toUpperCase(), path.replace(/\{\w+\}/g, 'x')])
    )
  }

  // raw() checks each answer against the document: an undeclared 415 or 413 fails here.
  test('every operation that takes a body declares the 415 and 413 it answers', async ({
    client,
    assert,
  }) => {
    const operations = await bodyOperations(client)
    assert.isAbove(operations.length, 15)
    const oversize = JSON.stringify({ Relleno: 'x'.repeat(1024 * 1024) })
    for (const [method, path] of operations) {
      const json = { 'Content-Type': 'application/json' }
      const plain = await raw(path, {
        method,
        headers: { 'Content-Type': 'text/plain' },
        body: 'a',
      })
      assert.equal(plain.status, 415, `${method} ${path}`)
      // A route that reads its own body (a stock sync: 20 MiB) reads it after authentication:
      // its 413 is tested on both sides of its limit in tests/functional/listings/sync.spec.ts.
      if (!streamedRoute(method, path)) {
        const large = await raw(path, { method, headers: json, body: oversize })
        assert.equal(large.status, 413, `${method} ${path}`)
      }
      // A JSON body within the limit passes both checks (no token: 401).
      const small = await raw(path, { method, headers: json, body: '{}' })
      assert.equal(small.status, 401, `${method} ${path}`)
    }
  })

  test('a GET whose body is not JSON is served: only methods whose body is read are checked', async ({
    assert,
  }) => {
    const { token } = await createCaller()
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${baseUrl()}/v3/monedas`, {
        method: 'GET',
        headers: {
          'Authorization': `Bearer ${token}`,
          'Content-Type': 'text/plain',
          'Content-Length': '4',
        },
      })
      request.on('response', (response) => {
        response.resume()
        resolve(response.statusCode!)
      })
      request.on('error', reject)
      request.end('hola')
    })
    assert.equal(status, 200)
  })
})
