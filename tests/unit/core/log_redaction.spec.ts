/*
 * The request log's paths (docs/design.md §25): the segment of a route
 * parameter named `token` is redacted, matched by the segments before it.
 */
import { test } from '@japa/runner'
import { redactedPath } from '#core/http/log_redaction'

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
})
