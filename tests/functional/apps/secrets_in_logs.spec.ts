/*
 * Secrets and tokens out of logs (docs/design.md §25): the request log writes
 * a registration link's token — any route parameter named `token` — as
 * `[redacted]`, on every method and also when the path matched no route; so
 * does any segment shaped like a bearer token of this service.
 */
import { test } from '@japa/runner'
import { randomBytes } from 'node:crypto'
import { captureLogs } from '#tests/helpers/logs'
import { raw } from '#tests/helpers/http'
import { until } from '#tests/helpers/until'

test.group('Request log without credentials', () => {
  test('/registro/<token> is logged as /registro/[redacted]; other paths as they are', async ({
    assert,
  }) => {
    const secret = randomBytes(32).toString('base64url')
    const logs = captureLogs('info')
    const sent: Array<[string, string, string]> = [
      ['GET', `/registro/${secret}`, '/registro/[redacted]'],
      ['POST', `/registro/${secret}`, '/registro/[redacted]'],
      ['GET', `/registro/${secret}/otra-cosa`, '/registro/[redacted]/otra-cosa'],
      ['GET', `/Registro/${secret}`, '/Registro/[redacted]'],
      ['GET', '/v3/credenciales/12345', '/v3/credenciales/12345'],
      // A bearer token pasted as a path segment (issue 33 follow-up item 5).
      ['GET', `/v3/credenciales/dla_MQ.${secret}`, '/v3/credenciales/[redacted]'],
    ]
    try {
      for (const [method, path] of sent) {
        const response = await raw(path, {
          method,
          headers: { 'accept': 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
          body: method === 'POST' ? 'AdminNombre=Ana' : undefined,
        })
        await response.body?.cancel()
      }
      await until(
        async () =>
          logs.records.filter((record) => /egistro|credenciales/.test(record.path)).length,
        (count) => count >= sent.length,
        5_000
      )
    } finally {
      logs.restore()
    }
    // The contract checker of the test client reads the OpenAPI document meanwhile.
    const logged = logs.records
      .filter((record) => record.durationMs !== undefined && record.path !== '/v3/openapi.json')
      .map((record) => [record.method, record.path])
    assert.deepEqual(
      logged,
      sent.map(([method, , path]) => [method, path])
    )
    // Nowhere in any record, not even in part.
    assert.notInclude(JSON.stringify(logs.records), secret.slice(0, 16))
  })
})
