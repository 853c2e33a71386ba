import { test } from '@japa/runner'
import { assertIfMatch, notModified, parseTags, preconditionFailed } from '#core/http/etag'
import { Problem } from '#core/http/problem'

/** Just enough of an HttpContext for the precondition helpers. */
const ctxWith = (headers: Record<string, string>) =>
  ({
    request: { header: (name: string) => headers[name.toLowerCase()] },
  }) as any

test.group('parseTags', () => {
  test('accepts * and lists of quoted tags, weak or strong, with empty members', ({ assert }) => {
    assert.deepEqual(parseTags('*'), ['*'])
    assert.deepEqual(parseTags(' "2.6" '), ['"2.6"'])
    assert.deepEqual(parseTags('"a", W/"b",,"c,d"'), ['"a"', 'W/"b"', '"c,d"'])
    assert.deepEqual(parseTags('""'), ['""'])
  })

  test('refuses bare, half-quoted, single-quoted, mixed-with-* and empty values', ({ assert }) => {
    for (const value of [
      '2.6',
      'W/2.6',
      '"2.6',
      "'2.6'",
      '"a" "b"',
      '"a", *',
      '',
      ' , ',
      'w/"a"',
    ]) {
      assert.isNull(parseTags(value), value)
    }
  })
})

test.group('If-Match and If-None-Match', () => {
  test('assertIfMatch: a stale tag → 412 carrying the current ETag; current or * → passes', ({
    assert,
  }) => {
    assert.doesNotThrow(() => assertIfMatch(ctxWith({ 'if-match': '"1.2"' }), '"1.2"'))
    assert.doesNotThrow(() => assertIfMatch(ctxWith({ 'if-match': '*' }), '"1.2"'))
    assert.doesNotThrow(() => assertIfMatch(ctxWith({}), '"1.2"'))
    try {
      assertIfMatch(ctxWith({ 'if-match': '"1.1", W/"1.2"' }), '"1.2"')
      assert.fail('expected a 412')
    } catch (error) {
      assert.instanceOf(error, Problem)
      assert.equal((error as Problem).status, 412)
      assert.deepEqual((error as Problem).options.headers, { ETag: '"1.2"' })
    }
  })

  test('a malformed If-Match → 400 keyed If-Match quoting the sent value', ({ assert }) => {
    try {
      assertIfMatch(ctxWith({ 'if-match': '2.6' }), '"2.6"')
      assert.fail('expected a 400')
    } catch (error) {
      assert.equal((error as Problem).status, 400)
      const errors = (error as Problem).options.errors!
      assert.deepEqual(Object.keys(errors), ['If-Match'])
      assert.include(errors['If-Match'][0], '"2.6"')
    }
  })

  test('notModified: weak comparison; strict throws 400 on malformed, lenient does not match', ({
    assert,
  }) => {
    assert.isTrue(notModified(ctxWith({ 'if-none-match': 'W/"1.2"' }), '"1.2"', { strict: true }))
    assert.isFalse(notModified(ctxWith({ 'if-none-match': '"1.1"' }), '"1.2"', { strict: true }))
    assert.isFalse(notModified(ctxWith({ 'if-none-match': '1.2' }), '"1.2"'))
    assert.throws(() => notModified(ctxWith({ 'if-none-match': '1.2' }), '"1.2"', { strict: true }))
  })

  test('preconditionFailed without a tag sets no header', ({ assert }) => {
    assert.isUndefined(preconditionFailed().options.headers)
    assert.equal(preconditionFailed('"9.9"').options.headers!.ETag, '"9.9"')
  })
})
