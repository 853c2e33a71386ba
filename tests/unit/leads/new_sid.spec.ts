import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import SidPool from '#leads/services/sid_pool'

test.group('SidPool', () => {
  test('10 characters of the unambiguous alphabet, fresh on every call across refills of the pool', ({
    assert,
  }) => {
    const pool = new SidPool()
    // 1 000 sids use the pool of random bytes ten times over.
    const sids = Array.from({ length: 1000 }, () => pool.next())
    for (const sid of sids) assert.match(sid, /^[abcdefghijkmnpqrstuvwxyz23456789]{10}$/)
    assert.equal(new Set(sids).size, sids.length)
    // Every letter turns up (the modulo reaches the whole alphabet).
    assert.equal(new Set(sids.join('')).size, 32)
  })
  test('one pool per process: the container hands out the same SidPool', async ({ assert }) => {
    assert.strictEqual(await app.container.make(SidPool), await app.container.make(SidPool))
  })
})
