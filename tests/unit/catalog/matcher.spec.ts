import { test } from '@japa/runner'
import { fail } from '#core/result'
import Matcher, {
  MAX_CANDIDATES,
  decide,
  likeLiteral,
  parseReference,
  type Candidate,
} from '#catalog/services/matcher'
import type MatchStore from '#catalog/stores/match_store'
import type { MatchScope } from '#catalog/stores/match_store'

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
    assert.deepEqual(decide([]), { ok: false, reason: 'not_found', details: { ids: [] } })
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
    assert.deepEqual(
      decide([
        candidate(1, { exact: true }),
        candidate(2, { exact: true }),
        candidate(3, { score: 0.9 }),
      ]),
      { ok: false, reason: 'ambiguous', details: { ids: [1, 2] } },
      'the exact ones are the candidates'
    )
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
    assert.deepEqual(
      decide([
        candidate(1, { score: 0.5 }),
        candidate(2, { score: 0.41 }),
        candidate(3, { score: 0.39 }),
      ]),
      { ok: false, reason: 'ambiguous', details: { ids: [1, 2] } },
      'the candidates are those within the margin of the best'
    )
  })

  test('an ambiguity names at most MAX_CANDIDATES, one per group', ({ assert }) => {
    const tied = Array.from({ length: MAX_CANDIDATES + 1 }, (_, i) =>
      candidate(i + 1, { exact: true })
    )
    const decided = decide([...tied, candidate(99, { group: 1, exact: true })])
    assert.deepEqual(
      decided,
      fail('ambiguous', {
        details: { ids: Array.from({ length: MAX_CANDIDATES }, (_, i) => i + 1) },
      })
    )
  })
})

/* Matcher.bestMatchId over a fake MatchStore: which statements a kind of input asks for. */
const BRANDS: MatchScope = { table: 'brands' }

class FakeMatchStore implements Pick<MatchStore, 'exists' | 'containing' | 'similar'> {
  asked: string[] = []
  constructor(
    private rows: { ids?: number[]; containing?: Candidate[]; similar?: Candidate[] } = {}
  ) {}

  async exists(_scope: MatchScope, id: number) {
    this.asked.push(`exists ${id}`)
    return (this.rows.ids ?? []).includes(id)
  }

  async containing(_scope: MatchScope, input: string) {
    this.asked.push(`containing ${input}`)
    return this.rows.containing ?? []
  }

  async similar(_scope: MatchScope, input: string) {
    this.asked.push(`similar ${input}`)
    return this.rows.similar ?? []
  }
}

const matcher = (store: FakeMatchStore) => new Matcher(store as unknown as MatchStore)

test.group('Catalogue matcher: what an input asks for', () => {
  test('an href of the collection is an id: one existence check, no search', async ({ assert }) => {
    const store = new FakeMatchStore({ ids: [7] })
    assert.deepEqual(await matcher(store).bestMatchId(BRANDS, '/v3/marcas/7'), {
      ok: true,
      value: 7,
    })
    assert.deepEqual(store.asked, ['exists 7'])
    const missing = new FakeMatchStore()
    assert.equal((await matcher(missing).bestMatchId(BRANDS, '/v3/marcas/8')).ok, false)
  })

  test('an href of another collection, or an empty input, asks nothing and is not found', async ({
    assert,
  }) => {
    const store = new FakeMatchStore({ ids: [7] })
    for (const input of ['/v3/modelos/7', '   '])
      assert.deepEqual(await matcher(store).bestMatchId(BRANDS, input), {
        ok: false,
        reason: 'not_found',
        details: { ids: [] },
      })
    assert.deepEqual(store.asked, [])
  })

  test('text: containment first; similarity only when nothing contains it', async ({ assert }) => {
    const found = new FakeMatchStore({ containing: [candidate(3)], similar: [candidate(4)] })
    assert.deepEqual(await matcher(found).bestMatchId(BRANDS, ' Toyota '), { ok: true, value: 3 })
    assert.deepEqual(found.asked, ['containing Toyota'])

    const typo = new FakeMatchStore({ similar: [candidate(4)] })
    assert.deepEqual(await matcher(typo).bestMatchId(BRANDS, 'Toyta'), { ok: true, value: 4 })
    assert.deepEqual(typo.asked, ['containing Toyta', 'similar Toyta'])
  })

  test('a number that names an entry wins over the id; one that names nothing is an id', async ({
    assert,
  }) => {
    const named = new FakeMatchStore({ ids: [208], containing: [candidate(5)] })
    assert.deepEqual(await matcher(named).bestMatchId(BRANDS, '208'), { ok: true, value: 5 })
    assert.notInclude(named.asked, 'exists 208')

    const byId = new FakeMatchStore({ ids: [208] })
    assert.deepEqual(await matcher(byId).bestMatchId(BRANDS, '208'), { ok: true, value: 208 })
    assert.deepEqual(byId.asked, ['containing 208', 'similar 208', 'exists 208'])

    const neither = new FakeMatchStore()
    assert.deepEqual(await matcher(neither).bestMatchId(BRANDS, '208'), {
      ok: false,
      reason: 'not_found',
      details: { ids: [] },
    })
  })

  test('a tie is ambiguous; for a number that is also an id, the id decides', async ({
    assert,
  }) => {
    const tie = [candidate(1, { exact: true }), candidate(2, { exact: true })]
    const text = new FakeMatchStore({ containing: tie })
    assert.deepEqual(await matcher(text).bestMatchId(BRANDS, 'Corolla'), {
      ok: false,
      reason: 'ambiguous',
      details: { ids: [1, 2] },
    })
    assert.deepEqual(text.asked, ['containing Corolla'])

    const digits = new FakeMatchStore({ ids: [12], containing: tie })
    assert.deepEqual(await matcher(digits).bestMatchId(BRANDS, '12'), { ok: true, value: 12 })
  })
})
