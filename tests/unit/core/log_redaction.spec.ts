/*
 * The request log's paths (docs/design.md §25): the segment of a route
 * parameter named `token` is redacted, matched by the segments before it.
 */
import { test } from '@japa/runner'
import { redactedPath } from '#core/http/log_redaction'
import { newSecret, tokenValue } from '#apps/services/token_format'

const ROUTES = ['/registro/:token', '/v3/credenciales/:id', '/v3/x/:adminmail/enlaces/:token?']

test.group('redactedPath', () => {
  test('credential segments redacted; the rest of the path, and other paths, kept', ({
    assert,
  }) => {
    const cases: Array<[string, string]> = [
      ['/registro/abc', '/registro/[redacted]'],
      ['/registro/abc/', '/registro/[redacted]/'],
      ['/registro/abc/mas', '/registro/[redacted]/mas'],
      ['/REGISTRO/abc', '/REGISTRO/[redacted]'],
      ['//registro//abc', '//registro//[redacted]'],
      ['/v3/x/a@b.com/enlaces/s3cr3t', '/v3/x/a@b.com/enlaces/[redacted]'],
      ['/registro', '/registro'],
      ['/registro/', '/registro/'],
      ['/v3/credenciales/12', '/v3/credenciales/12'],
      ['/v3/registro/abc', '/v3/registro/abc'],
      ['/v3/x/a@b.com/otros/abc', '/v3/x/a@b.com/otros/abc'],
    ]
    for (const [path, logged] of cases) assert.equal(redactedPath(path, ROUTES), logged, path)
  })

  test('no route with a credential: the path as it is', ({ assert }) => {
    assert.equal(redactedPath('/registro/abc', ['/v3/credenciales/:id']), '/registro/abc')
  })

  test('a segment shaped like a token of this service is redacted on any path; other segments kept', ({
    assert,
  }) => {
    const issued = tokenValue(1, newSecret().secret)
    const cases: Array<[string, string]> = [
      ['/v3/credenciales/dla_MQ.SECRET5', '/v3/credenciales/[redacted]'],
      [`/v3/credenciales/${issued}`, '/v3/credenciales/[redacted]'],
      [`/${issued}/x`, '/[redacted]/x'],
      ['/v3/x/DLA%5FMQ.s', '/v3/x/[redacted]'],
      ['/v3/credenciales/dla', '/v3/credenciales/dla'],
      ['/v3/credenciales/xdla_MQ.s', '/v3/credenciales/xdla_MQ.s'],
      ['/v3/credenciales/12', '/v3/credenciales/12'],
    ]
    for (const [path, logged] of cases) assert.equal(redactedPath(path, ROUTES), logged, path)
  })
})
