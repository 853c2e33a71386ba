/*
 * SettlePhoto (the `photos.fetch` settle) and SuspendListings (listings' share
 * of an agency, operator or plan change) alone, on the fakes of ./fakes.ts.
 */
import { test } from '@japa/runner'
import { FAKE_TX } from '#tests/helpers/fakes'
import { AGENCY, COLLAB, listingRow, world } from './fakes.js'

const READY = {
  state: 'ready',
  storage_key: '1/9-abc.jpg',
  thumbnail_key: '1/9-abc-t.jpg',
  width: 1920,
  height: 1080,
} as const

test.group('SettlePhoto', () => {
  test('a pending photo: the listing row locked first, the cache refreshed with a new revision, its event', async ({
    assert,
  }) => {
    const w = world()
    w.photos.pending.add(9)
    assert.isTrue(await w.settler.execute({ id: 9, listingId: 1 }, READY))
    assert.deepEqual(w.store.calls, ['lock 1 (tx)', 'refreshPhotoCache 1 bumping (tx)'])
    assert.deepEqual(w.photos.calls, ['settle 9'])
    assert.deepEqual(w.events.photosSettled, [9])
    assert.equal(w.unitOfWork.committed, 1)
  })

  test('a photo no longer pending (replaced, or settled by an earlier run) is left alone', async ({
    assert,
  }) => {
    const w = world()
    const rejected = { state: 'rejected', reason: 'No se pudo descargar la foto.' } as const
    assert.isFalse(await w.settler.execute({ id: 9, listingId: 1 }, rejected))
    assert.deepEqual(w.store.calls, ['lock 1 (tx)'])
    assert.deepEqual(w.events.photosSettled, [])
  })
})

test.group('SuspendListings', () => {
  test('an agency suspended: its active listings suspended, each with its event; none active → 0', async ({
    assert,
  }) => {
    const w = world()
    w.store.rows.push(
      listingRow({ id: 1, state: 'active' }),
      listingRow({ id: 2, state: 'suspended', externalId: 'EXT-2' }),
      listingRow({ id: 3, state: 'active', externalId: 'EXT-3' })
    )
    assert.equal(await w.suspender.agencySuspended(AGENCY.id, FAKE_TX), 2)
    assert.deepEqual(
      w.store.rows.map((row) => row.state),
      ['suspended', 'suspended', 'suspended']
    )
    assert.deepEqual(w.events.stateChanges, [
      { listingId: 1, to: 'suspended', cause: 'agency_suspended' },
      { listingId: 3, to: 'suspended', cause: 'agency_suspended' },
    ])
    assert.equal(await w.suspender.agencySuspended(AGENCY.id, FAKE_TX), 0)
    assert.lengthOf(
      w.store.calls.filter((call) => call.startsWith('suspend')),
      1
    )
  })

  test('an operator suspended: only the listings they are responsible for', async ({ assert }) => {
    const w = world()
    w.store.rows.push(
      listingRow({ id: 1 }),
      listingRow({ id: 2, externalId: 'EXT-2', operatorId: COLLAB.id })
    )
    assert.equal(await w.suspender.operatorSuspended(COLLAB.id, FAKE_TX), 1)
    assert.deepEqual(w.events.stateChanges, [
      { listingId: 2, to: 'suspended', cause: 'operator_suspended' },
    ])
    assert.equal(w.store.rows[0].state, 'active')
  })

  test('a smaller plan: at capacity nothing moves; one over, the most recently updated goes', async ({
    assert,
  }) => {
    const w = world()
    w.store.rows.push(
      listingRow({ id: 1 }),
      listingRow({ id: 2, externalId: 'EXT-2' }),
      listingRow({ id: 3, externalId: 'EXT-3' })
    )
    assert.equal(await w.suspender.capacityLowered(AGENCY.id, 3, FAKE_TX), 0)
    assert.deepEqual(w.store.calls.slice(0, 2), ['holdActivations (tx)', 'countActive (tx)'])
    assert.equal(await w.suspender.capacityLowered(AGENCY.id, 2, FAKE_TX), 1)
    assert.deepEqual(
      w.store.rows.map((row) => row.state),
      ['active', 'active', 'suspended']
    )
    assert.deepEqual(w.events.stateChanges, [{ listingId: 3, to: 'suspended', cause: 'plan' }])
  })
})
