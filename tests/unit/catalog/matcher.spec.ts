import { test } from '@japa/runner'
import { decide, likeLiteral, parseReference, type Candidate } from '#catalog/services/matcher'

const candidate = (id: number, extra: Partial<Candidate> = {}): Candidate => ({
  id,
  group: id,
  exact: false,
  prefix: false,
  score: 0.5,
  ...extra,
})

test.group('Catalogue matcher: references', () => {
  test('paths and URLs of the collection name an id within 1..2^31-1', ({ assert }) => {
    assert.deepEqual(parseReference('/v3/marcas/1', '/v3/marcas'), { kind: 'id', id: 1 })
    assert.deepEqual(parseReference('/v3/marcas/2147483647', '/v3/marcas'), {
      kind: 'id',
      id: 2147483647,
    })
    assert.deepEqual(parseReference('/v3/marcas/0', '/v3/marcas'), { kind: 'invalid' })
    assert.deepEqual(parseReference('/v3/marcas/2147483648', '/v3/marcas'), { kind: 'invalid' })
    assert.deepEqual(parseReference('/v3/marcas/12345678901', '/v3/marcas'), { kind: 'invalid' })
    assert.deepEqual(parseReference('https://api.example/v3/marcas/7/', '/v3/marcas'), {
      kind: 'id',
      id: 7,
    })
    assert.deepEqual(parseReference('/v3/marcas/7?x=1#y', '/v3/marcas'), { kind: 'id', id: 7 })
    assert.deepEqual(parseReference('/v3/modelos/7', '/v3/marcas'), { kind: 'invalid' })
    assert.deepEqual(parseReference('/v3/marcas/siete', '/v3/marcas'), { kind: 'invalid' })
    assert.deepEqual(parseReference('http://[nope/v3/marcas/7', '/v3/marcas'), {
      kind: 'invalid',
    })
  })

  test('bare digits within the int32 range may be an id; anything else is text', ({ assert }) => {
    assert.deepEqual(parseReference('1', '/v3/marcas'), { kind: 'digits', id: 1 })
    assert.deepEqual(parseReference('2147483647', '/v3/marcas'), {
      kind: 'digits',
      id: 2147483647,
    })
    assert.deepEqual(parseReference('0', '/v3/marcas'), { kind: 'text' })
    assert.deepEqual(parseReference('2147483648', '/v3/marcas'), { kind: 'text' })
    assert.deepEqual(parseReference('12345678901', '/v3/marcas'), { kind: 'text' })
    assert.deepEqual(parseReference('208', '/v3/modelos'), { kind: 'digits', id: 208 })
    assert.deepEqual(parseReference('Peugeot 208', '/v3/modelos'), { kind: 'text' })
  })

  test('LIKE wildcards and the escape character are taken literally', ({ assert }) => {
    assert.equal(likeLiteral('50%_off\\'), '50\\%\\_off\\\\')
    assert.equal(likeLiteral('Corolla'), 'Corolla')
  })
})

test.group('Catalogue matcher: deciding between candidates', () => {
  test('none is not found; one is the answer; one group counts once', ({ assert }) => {
    assert.deepEqual(decide([]), { ok: false, reason: 'not_found' })
    assert.deepEqual(decide([candidate(3)]), { ok: true, value: 3 })
    assert.deepEqual(
      decide([candidate(3, { group: 'x', score: 0.5 }), candidate(4, { group: 'x', score: 0.5 })]),
      { ok: true, value: 3 }
    )
  })

  test('an exact hit wins unless another is exact too', ({ assert }) => {
    assert.deepEqual(decide([candidate(1, { exact: true }), candidate(2, { score: 0.9 })]), {
      ok: true,
      value: 1,
    })
    assert.deepEqual(decide([candidate(1, { exact: true }), candidate(2, { exact: true })]), {
      ok: false,
      reason: 'ambiguous',
    })
  })

  test('a prefix beats a mere containment; otherwise a 0.1 margin of similarity decides', ({
    assert,
  }) => {
    assert.deepEqual(
      decide([candidate(1, { prefix: true, score: 0.2 }), candidate(2, { score: 0.2 })]),
      { ok: true, value: 1 }
    )
    assert.deepEqual(decide([candidate(1, { score: 0.75 }), candidate(2, { score: 0.5 })]), {
      ok: true,
      value: 1,
    })
    // Just over the margin decides; just under it is a tie.
    assert.deepEqual(decide([candidate(1, { score: 0.5 }), candidate(2, { score: 0.39 })]), {
      ok: true,
      value: 1,
    })
    assert.deepEqual(decide([candidate(1, { score: 0.5 }), candidate(2, { score: 0.41 })]), {
      ok: false,
      reason: 'ambiguous',
    })
  })
})
