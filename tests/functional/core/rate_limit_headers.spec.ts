/*
 * Limits a client can plan for (docs/design.md §24): every answer counted by a
 * limit carries `RateLimit-Policy` and `RateLimit` (IETF httpapi draft) beside
 * `X-RateLimit-*`, and every 429 carries `Retry-After`. Both limits, both sides
 * of each edge. Responses are checked against the OpenAPI document by `raw`.
 */
import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { raw } from '#tests/helpers/http'
import { settings } from '#core/settings'

const configured = {
  app: settings.rateLimitPerMinute,
  auth: settings.authFailuresPerMinute,
}
let addresses = 0
/** A fresh client address per test (loopback is a trusted proxy, so X-Forwarded-For sets it). */
const freshAddress = () => `198.51.100.${++addresses}`

function get(path: string, token: string | null, address = freshAddress()) {
  const headers: Record<string, string> = { 'X-Forwarded-For': address }
  if (token !== null) headers.Authorization = `Bearer ${token}`
  return raw(path, { headers })
}

/** `"name";a=1;b=2` → { name, a: 1, b: 2 }, or null when not of that form. */
function item(value: string | null): ({ name: string } & Record<string, number>) | null {
  const match = /^"([a-z]+)"((?:;[a-z]+=\d+)+)$/.exec(value ?? '')
  if (!match) return null
  const params = Object.fromEntries(
    match[2]
      .slice(1)
      .split(';')
      .map((pair) => pair.split('='))
      .map(([key, number]) => [key, Number(number)])
  )
  return { ...params, name: match[1] } as { name: string } & Record<string, number>
}

test.group('Rate limit headers', (group) => {
  group.each.teardown(() => {
    settings.rateLimitPerMinute = configured.app
    settings.authFailuresPerMinute = configured.auth
  })

  test('per app: each counted answer says the policy and what is left; the one over it is 429 + Retry-After', async ({
    assert,
  }) => {
    settings.rateLimitPerMinute = 3
    const { token } = await createCaller('planned')
    for (let used = 1; used <= 3; used++) {
      const response = await get('/v3', token)
      assert.equal(response.status, 200)
      assert.deepEqual(item(response.headers.get('ratelimit-policy')), {
        name: 'aplicacion',
        q: 3,
        w: 60,
      })
      const left = item(response.headers.get('ratelimit'))!
      assert.equal(left.name, 'aplicacion')
      assert.equal(left.r, 3 - used, `request ${used}`)
      assert.isAtLeast(left.t, 0)
      assert.isAtMost(left.t, 60)
      assert.equal(response.headers.get('x-ratelimit-limit'), '3')
      assert.equal(response.headers.get('x-ratelimit-remaining'), String(3 - used))
      assert.isNull(response.headers.get('retry-after'), 'no Retry-After under the limit')
    }
    const limited = await get('/v3', token)
    assert.equal(limited.status, 429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    assert.isAtLeast(retryAfter, 1)
    assert.isAtMost(retryAfter, 60)
    assert.deepEqual(item(limited.headers.get('ratelimit-policy')), {
      name: 'aplicacion',
      q: 3,
      w: 60,
    })
    assert.deepEqual(item(limited.headers.get('ratelimit')), {
      name: 'aplicacion',
      r: 0,
      t: retryAfter,
    })
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0')
    assert.match(limited.headers.get('x-ratelimit-reset') ?? '', /^\d{4}-\d\d-\d\dT/)
  })

  test('an error the handler answers is counted and says so too', async ({ assert }) => {
    settings.rateLimitPerMinute = 5
    const { token } = await createCaller('errors')
    const missing = await get('/v3/agencias/nadie@example.com', token)
    assert.equal(missing.status, 404)
    const left = item(missing.headers.get('ratelimit'))!
    assert.equal(left.name, 'aplicacion')
    assert.equal(left.r, 4)
    assert.equal(missing.headers.get('x-ratelimit-remaining'), '4')
  })

  test('failed authentications: each 401 says how many are left; the one over the limit is 429 + Retry-After', async ({
    assert,
  }) => {
    settings.authFailuresPerMinute = 3
    const address = freshAddress()
    for (let failed = 1; failed <= 3; failed++) {
      const response = await get('/v3', failed % 2 ? 'dla_MQ.bm9wZQ' : null, address)
      assert.equal(response.status, 401)
      assert.deepEqual(item(response.headers.get('ratelimit-policy')), {
        name: 'autenticacion',
        q: 3,
        w: 60,
      })
      assert.equal(item(response.headers.get('ratelimit'))!.r, 3 - failed, `failure ${failed}`)
      assert.isNull(response.headers.get('retry-after'))
    }
    const limited = await get('/v3', 'dla_MQ.bm9wZQ', address)
    assert.equal(limited.status, 429)
    const retryAfter = Number(limited.headers.get('retry-after'))
    assert.isAtLeast(retryAfter, 1)
    assert.isAtMost(retryAfter, 60)
    assert.deepEqual(item(limited.headers.get('ratelimit')), {
      name: 'autenticacion',
      r: 0,
      t: retryAfter,
    })
    // Spent: refused before any lookup, with the same headers.
    const again = await get('/v3', null, address)
    assert.equal(again.status, 429)
    assert.equal(item(again.headers.get('ratelimit-policy'))!.name, 'autenticacion')
    assert.isAtLeast(Number(again.headers.get('retry-after')), 1)
  })

  test('a successful request is counted by its app, not by the failures of its address', async ({
    assert,
  }) => {
    const { token } = await createCaller('passing')
    const response = await get('/v3', token)
    assert.equal(response.status, 200)
    assert.equal(item(response.headers.get('ratelimit-policy'))!.name, 'aplicacion')
  })

  test('the OpenAPI document declares the headers, and requires them on a 429', async ({
    assert,
  }) => {
    const document = (await (await raw('/v3/openapi.json')).json()) as any
    const operation = document.paths['/v3'].get
    assert.containsSubset(operation.responses['200'].headers, {
      'RateLimit-Policy': { required: false },
      'RateLimit': { required: false },
    })
    assert.containsSubset(operation.responses['429'].headers, {
      'RateLimit-Policy': { required: true },
      'RateLimit': { required: true },
      'Retry-After': { required: true },
    })
    assert.notProperty(operation.responses['503'].headers, 'RateLimit')
    assert.notProperty(
      document.paths['/health/live'].get.responses['200'].headers ?? {},
      'RateLimit'
    )
  })
})
