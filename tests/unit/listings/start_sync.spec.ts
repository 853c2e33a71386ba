/*
 * StartSync alone (no PostgreSQL): rows refused on arrival, the archive guard
 * on both sides of its edges (more than 20 % and more than 5), what a full
 * sync archives, and the sync, its rows and its job stored in one unit of
 * work. The fakes are in ./sync_fakes.ts.
 */
import { test } from '@japa/runner'
import type { Inventory } from '#listings/validators/inventory'
import { ARCHIVE_FLOOR, ARCHIVE_SHARE } from '#listings/services/start_sync'
import { STOCK_SYNC } from '#listings/queues'
import { FAKE_TX } from '#tests/helpers/fakes'
import { AGENCY, APP_ID } from './fakes.js'
import { syncWorld } from './sync_fakes.js'

const caller = { id: APP_ID }

const row = (externalId: string | null, extra: Record<string, unknown> = {}) => ({
  externalId,
  payload: JSON.stringify({ ExternalId: externalId, Marca: 'Toyota', ...extra }),
})

function inventory(overrides: Partial<Inventory> = {}): Inventory {
  return {
    mode: 'partial',
    simulate: false,
    confirmArchives: false,
    rows: [row('A-1')],
    archives: [],
    bodyHash: 'hash',
    ...overrides,
  }
}

const ids = (count: number, prefix = 'L') =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`)

/** A full sync keeping `kept` of `live` listings of the app (the rest would be archived). */
async function full(live: number, kept: number, confirmArchives = false) {
  const w = syncWorld()
  w.syncs.live = ids(live)
  const result = await w.starter.execute(
    caller,
    AGENCY,
    inventory({
      mode: 'full',
      confirmArchives,
      rows: ids(kept).map((externalId) => row(externalId)),
    })
  )
  return { w, result }
}

test.group('StartSync: rows refused on arrival', () => {
  test('two rows with one ExternalId (any case): both rejected, without their payloads; the others go on', async ({
    assert,
  }) => {
    const w = syncWorld()
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ rows: [row('A-1'), row('B-1'), row('a-1'), row(null), row(null)] })
    )
    assert.isTrue(result.ok)
    const id = result.ok ? result.value.id : 0
    const rows = w.syncs.rowsOf(id)
    assert.deepEqual(
      rows.map((one) => [one.position, one.externalId, one.outcome ?? null]),
      [
        [1, 'A-1', 'rejected'],
        [2, 'B-1', null],
        [3, 'a-1', 'rejected'],
        // No ExternalId is no duplicate: the worker rejects each with its own Errors.
        [4, null, null],
        [5, null, null],
      ]
    )
    assert.deepEqual(rows[0].rejection, { ok: false, reason: 'repeated_external_id' })
    assert.isNull(rows[0].payload)
    assert.isNull(rows[2].payload)
    assert.isString(rows[1].payload)
    // Refused rows count as processed at once.
    assert.include(result.ok && result.value, { total: 5, processed: 2 })
    assert.equal(result.ok && result.value.counts.rejected, 2)
  })

  test('a Baja also sent as a row is rejected; a Baja named twice is one row; Bajas follow the rows', async ({
    assert,
  }) => {
    const w = syncWorld()
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ rows: [row('A-1'), row('B-1')], archives: ['b-1', 'X-1', 'x-1', 'Y-1'] })
    )
    const id = result.ok ? result.value.id : 0
    assert.deepEqual(
      w.syncs
        .rowsOf(id)
        .map((one) => [one.position, one.kind, one.externalId, one.outcome ?? null]),
      [
        [1, 'upsert', 'A-1', null],
        [2, 'upsert', 'B-1', null],
        [3, 'archive', 'b-1', 'rejected'],
        [4, 'archive', 'X-1', null],
        [5, 'archive', 'Y-1', null],
      ]
    )
    assert.deepEqual(w.syncs.rowsOf(id)[2].rejection, { ok: false, reason: 'archive_also_sent' })
    assert.notInclude(
      w.syncs.calls.map((call) => call.split(' ')[0]),
      'countAbsent',
      'a partial sync archives only what it names'
    )
  })

  test('the sync, its rows and its job in one unit of work; the sync as stored is the answer', async ({
    assert,
  }) => {
    const w = syncWorld()
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ simulate: true, rows: [row('A-1'), row('B-1')] })
    )
    assert.isTrue(result.ok)
    assert.include(result.ok && result.value, {
      appId: APP_ID,
      agencyId: AGENCY.id,
      adminEmail: AGENCY.adminMail,
      mode: 'partial',
      simulated: true,
      state: 'pending',
      total: 2,
      processed: 0,
    })
    assert.deepEqual(w.syncs.calls, ['create (tx)', 'insertRows (tx)', 'findById'])
    assert.deepEqual(w.runner.sent, [
      { name: STOCK_SYNC, data: { syncId: result.ok ? result.value.id : 0 }, inTransaction: true },
    ])
    assert.equal(w.unitOfWork.committed, 1)
  })
})

test.group('StartSync: the archive guard (more than 20 % and more than 5)', () => {
  test('the edges are the documented ones', ({ assert }) => {
    assert.equal(ARCHIVE_SHARE, 0.2)
    assert.equal(ARCHIVE_FLOOR, 5)
  })

  test('5 of 10 (50 %, but not more than 5): allowed', async ({ assert }) => {
    const { w, result } = await full(10, 5)
    assert.isTrue(result.ok)
    await w.syncs.listArchives(1, FAKE_TX)
    assert.equal(w.syncs.rowsOf(1).filter((one) => one.kind === 'archive').length, 5)
  })

  test('6 of 10 (60 %, more than 5): refused naming how many, and nothing is stored or queued', async ({
    assert,
  }) => {
    const { w, result } = await full(10, 4)
    assert.isFalse(result.ok)
    assert.deepEqual(!result.ok && result, {
      ok: false,
      reason: 'too_many_archives',
      details: { archives: 6, live: 10 },
    })
    assert.lengthOf(w.syncs.syncs, 0)
    assert.lengthOf(w.runner.sent, 0)
    assert.equal(w.unitOfWork.committed + w.unitOfWork.rolledBack, 0, 'no unit of work begun')
  })

  test('6 of 40 (15 %): allowed; 8 of 40 (20 %): allowed; 9 of 40 (22.5 %): refused', async ({
    assert,
  }) => {
    assert.isTrue((await full(40, 34)).result.ok)
    assert.isTrue((await full(40, 32)).result.ok)
    const refused = (await full(40, 31)).result
    assert.deepEqual(!refused.ok && refused.details, { archives: 9, live: 40 })
  })

  test('with ConfirmarBajas: 6 of 10 and 10 of 10 (a one-row inventory of a new listing) allowed', async ({
    assert,
  }) => {
    assert.isTrue((await full(10, 4, true)).result.ok)
    const w = syncWorld()
    w.syncs.live = ids(10)
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ mode: 'full', confirmArchives: true, rows: [row('NEW-1')] })
    )
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.total, 1, 'the archives are listed when it starts')
  })
})

test.group('StartSync: Completa archives exactly the absent ones', () => {
  test("the app's live listings the rows leave out (any case), after the rows, each once, listed when it starts", async ({
    assert,
  }) => {
    const w = syncWorld()
    w.syncs.live = ['A-1', 'B-1', 'C-1', 'D-1']
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ mode: 'full', rows: [row('a-1'), row('C-1'), row('NEW-1')] })
    )
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.total, 3, 'the rows; the archives come when it starts')
    assert.isTrue(w.syncs.syncs[0].archivesPending)
    // A listing created before it starts (by a sync queued ahead of it) is archived too.
    w.syncs.live.push('E-1')
    await w.runSync.execute(1)
    assert.deepEqual(
      w.syncs.rowsOf(1).map((one) => [one.position, one.kind, one.externalId]),
      [
        [1, 'upsert', 'a-1'],
        [2, 'upsert', 'C-1'],
        [3, 'upsert', 'NEW-1'],
        [4, 'archive', 'B-1'],
        [5, 'archive', 'D-1'],
        [6, 'archive', 'E-1'],
      ]
    )
    // The guard asked for the app's listings of this agency, keeping the rows' ExternalIds.
    assert.include(w.syncs.calls, `countAbsent ${APP_ID} ${AGENCY.id}`)
    assert.equal(w.syncs.sync(1).total, 6)
  })

  test('an inventory naming every live listing archives nothing', async ({ assert }) => {
    const w = syncWorld()
    w.syncs.live = ['A-1', 'B-1']
    const result = await w.starter.execute(
      caller,
      AGENCY,
      inventory({ mode: 'full', rows: [row('A-1'), row('B-1')] })
    )
    assert.isTrue(result.ok)
    await w.syncs.listArchives(1, FAKE_TX)
    assert.deepEqual(
      w.syncs.rowsOf(1).map((one) => one.kind),
      ['upsert', 'upsert']
    )
  })
})
