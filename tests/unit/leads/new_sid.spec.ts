import { test } from '@japa/runner'
import { newSid } from '#leads/services/receive_inquiry'

test.group('newSid', () => {
  test('10 characters of the unambiguous alphabet, fresh on every call across refills of the pool', ({
    assert,
  }) => {
    // 1 000 sids use the pool of random bytes ten times over.
    const sids = Array.from({ length: 1000 }, () => newSid())
    for (const sid of sids) assert.match(sid, /^[abcdefghijkmnpqrstuvwxyz23456789]{10}$/)
    assert.equal(new Set(sids).size, sids.length)
    // Every letter turns up (the modulo reaches the whole alphabet).
    assert.equal(new Set(sids.join('')).size, 32)
  })
})
