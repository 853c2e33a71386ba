import { test } from '@japa/runner'
import { boundedDistance, MAX_SUGGESTIONS, nearestNames } from '#catalog/services/nearest_names'

const named = (...names: string[]) => names.map((name) => ({ name }))
const nearest = (input: string, names: string[]) =>
  nearestNames(input, named(...names)).map(({ name }) => name)

test.group('Catalogue: the nearest names to an input that matched nothing', () => {
  test('the distance is exact up to its limit and gives up past it', ({ assert }) => {
    assert.equal(boundedDistance('corolla', 'corola', 2), 1)
    assert.equal(boundedDistance('amarok', 'amarak', 1), 1, 'at the limit')
    assert.equal(boundedDistance('amarok', 'omarak', 1), 2, 'one past the limit: limit + 1')
    assert.equal(boundedDistance('s', 'sprinter', 3), 4, 'lengths alone exceed it')
  })

  test('punctuation, spaces, case and accents do not count: S10 → S-10, citroen c3 → Citroën C3', ({
    assert,
  }) => {
    assert.deepEqual(nearest('S10', ['S-10', 'Spin', 'Onix']), ['S-10'])
    assert.deepEqual(nearest('CITROEN c3', ['Citroën C3', 'C4']), ['Citroën C3'])
  })

  test('an input that is a name and more words suggests the name: Gol Trend → Gol', ({
    assert,
  }) => {
    assert.deepEqual(nearest('Gol Trend', ['Gol', 'Golf', 'Amarok']), ['Gol'])
  })

  test('one edit per three characters: within it suggested, past it not', ({ assert }) => {
    // "amarok" has 6 characters: 2 edits allowed.
    assert.deepEqual(nearest('amarok', ['Omarak']), ['Omarak'])
    assert.deepEqual(nearest('amarok', ['Omaraq']), [])
    assert.deepEqual(nearest('zzzz', ['Corolla', 'Hilux']), [])
  })

  test(`at most ${MAX_SUGGESTIONS}, nearest first`, ({ assert }) => {
    assert.deepEqual(nearest('polo', ['Pola', 'Polo Track', 'Pols', 'Pulo', 'Polx', 'Palo']), [
      'Palo',
      'Pola',
      'Pols',
    ])
  })
})
