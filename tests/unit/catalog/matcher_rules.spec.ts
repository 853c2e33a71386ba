/*
 * Matcher.bestMatchId over a fake MatchStore: which statements a kind of input
 * asks for, and what each answer decides.
 */
import { test } from '@japa/runner'
import Matcher from '#catalog/services/matcher'
import type MatchStore from '#catalog/stores/match_store'
import type { Candidate, MatchScope } from '#catalog/stores/match_store'

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

const candidate = (id: number, extra: Partial<Candidate> = {}): Candidate => ({
  id,
  group: id,
  exact: false,
  prefix: false,
  score: 0.5,
  ...extra,
})

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
    })
    assert.deepEqual(text.asked, ['containing Corolla'])

    const digits = new FakeMatchStore({ ids: [12], containing: tie })
    assert.deepEqual(await matcher(digits).bestMatchId(BRANDS, '12'), { ok: true, value: 12 })
  })
})
