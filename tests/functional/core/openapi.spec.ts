import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'

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
