import { test } from '@japa/runner'
import { setTimeout as sleep } from 'node:timers/promises'
import { Recent } from '#core/recent'

test.group('Recent (in-process memory)', () => {
  test('answers within its time to live and forgets after it', async ({ assert }) => {
    const recent = new Recent<number>(40)
    recent.set('a', 1)
    assert.equal(recent.get('a'), 1)
    assert.isUndefined(recent.get('b'))
    await sleep(60)
    assert.isUndefined(recent.get('a'))
  })

  test('holds at most maxEntries: the next one clears the rest', ({ assert }) => {
    const recent = new Recent<number>(60_000, 3)
    for (const key of ['a', 'b', 'c']) recent.set(key, 1)
    assert.equal(recent.get('c'), 1)
    recent.set('d', 4)
    assert.isUndefined(recent.get('a'))
    assert.isUndefined(recent.get('c'))
    assert.equal(recent.get('d'), 4)
  })

  test('clear forgets everything', ({ assert }) => {
    const recent = new Recent<string>(60_000)
    recent.set('a', 'x')
    recent.clear()
    assert.isUndefined(recent.get('a'))
  })
})
