/*
 * A stock sync judging itself as it goes (docs/design.md §25), on the fakes of
 * ./sync_fakes.ts: the drop guard applied again to the archive list built when
 * a full sync starts (on both sides of its edges; a simulation only says a
 * real run would need ConfirmarBajas), a disabled app (or one with no live
 * token) stopping its sync at the next batch, a sync started again and again
 * at the same row given up, and rows too large to read refused.
 */
import { test } from '@japa/runner'
import { currentYear } from '#listings/services/listing_rules'
import { BATCH, MAX_STARTS } from '#listings/services/run_sync'
import { MAX_ROW_BYTES } from '#listings/stores/sync_store'
import { STOCK_SYNC } from '#listings/queues'
import { AGENCY, APP_ID, listingRow, plan } from './fakes.js'
import { syncWorld } from './sync_fakes.js'

type World = ReturnType<typeof syncWorld>

const body = (externalId: string, extra: Record<string, unknown> = {}) => ({
  ExternalId: externalId,
  Marca: 'Toyota',
  Modelo: 'Corolla',
  Version: '2.0 XEI CVT',
  VersionYear: currentYear(),
  Kilometraje: 0,
  Color: 'Gris',
  ...extra,
})

const ids = (count: number, prefix = 'L') =>
  Array.from({ length: count }, (_, index) => `${prefix}-${index + 1}`)

/**
 * `live` listings of the app (in the listing store too, so an archive would
 * show) and a full sync, as StartSync stores it, naming the first `kept`.
 */
function fullSync(w: World, live: number, kept: number, sync: Record<string, unknown> = {}) {
  const externalIds = ids(live)
  w.syncs.live = externalIds
  externalIds.forEach((externalId, index) =>
    w.listings.rows.push(listingRow({ id: index + 1, externalId, revision: 1 }))
  )
  return w.syncs.seed(
    { mode: 'full', archivesPending: true, ...sync } as any,
    externalIds.slice(0, kept).map((externalId, index) => ({
      position: index + 1,
      kind: 'upsert' as const,
      externalId,
      payload: body(externalId),
    }))
  )
}

const archivedListings = (w: World) => w.listings.rows.filter((row) => row.state === 'archived')

test.group('RunSync: the drop guard when a full sync starts', () => {
  test('6 of 10 left out when it starts (60 %, more than 5), no ConfirmarBajas: failed with the figures, nothing listed, archived or written; the next sync is sent', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = fullSync(w, 10, 4)
    w.syncs.nextId = 9
    assert.equal(await w.runSync.execute(id), 'finished')
    const sync = w.syncs.sync(id)
    assert.equal(sync.state, 'failed')
    assert.deepEqual(sync.failure, { reason: 'too_many_archives', archives: 6, live: 10 })
    assert.deepEqual(
      w.syncs.rowsOf(id).map((row) => row.kind),
      ['upsert', 'upsert', 'upsert', 'upsert'],
      'no archive row listed'
    )
    assert.deepEqual(w.syncs.outcomes(id), {
      1: undefined,
      2: undefined,
      3: undefined,
      4: undefined,
    })
    assert.include(sync, { total: 4, processed: 0 })
    assert.lengthOf(archivedListings(w), 0)
    assert.lengthOf(w.appEvents.emitted, 0, 'no SincronizacionTerminada for a failed sync')
    assert.deepEqual(w.runner.sent.at(-1), {
      name: STOCK_SYNC,
      data: { syncId: 9 },
      inTransaction: false,
    })
  })

  test('5 of 10 (not more than 5): archived; 8 of 40 (20 %): archived; 9 of 40 (22.5 %): failed', async ({
    assert,
  }) => {
    const five = syncWorld()
    const a = fullSync(five, 10, 5)
    await five.runSync.execute(a)
    assert.include(five.syncs.sync(a), { state: 'done', failure: null })
    assert.equal(five.syncs.sync(a).counts.archived, 5)

    const eight = syncWorld()
    const b = fullSync(eight, 40, 32)
    await eight.runSync.execute(b)
    assert.equal(eight.syncs.sync(b).state, 'done')
    assert.equal(eight.syncs.sync(b).counts.archived, 8)

    const nine = syncWorld()
    const c = fullSync(nine, 40, 31)
    await nine.runSync.execute(c)
    assert.deepEqual(nine.syncs.sync(c).failure, {
      reason: 'too_many_archives',
      archives: 9,
      live: 40,
    })
    assert.lengthOf(archivedListings(nine), 0)
  })

  test('with ConfirmarBajas: 6 of 10 archived', async ({ assert }) => {
    const w = syncWorld()
    const id = fullSync(w, 10, 4, { confirmArchives: true })
    await w.runSync.execute(id)
    assert.include(w.syncs.sync(id), { state: 'done', failure: null })
    assert.equal(w.syncs.sync(id).counts.archived, 6)
    assert.lengthOf(archivedListings(w), 6)
  })

  test('a simulation is not refused: it runs and says a real run would need ConfirmarBajas (6 of 10), or would not (5 of 10)', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = fullSync(w, 10, 4, { simulated: true })
    await w.runSync.execute(id)
    assert.include(w.syncs.sync(id), {
      state: 'done',
      failure: null,
      confirmationRequired: true,
    })
    assert.equal(w.syncs.sync(id).counts.archived, 6, 'what a confirmed run would archive')
    assert.lengthOf(archivedListings(w), 0, 'a simulation writes nothing')

    const under = syncWorld()
    const other = fullSync(under, 10, 5, { simulated: true, confirmationRequired: true })
    await under.runSync.execute(other)
    assert.include(under.syncs.sync(other), { state: 'done', confirmationRequired: false })
  })

  test('a full sync resumed after its archives were listed is not judged again', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = fullSync(w, 10, 4, { confirmArchives: true })
    w.syncs.loseLeaseAtRenew = 1
    assert.equal(await w.runSync.execute(id), 'waiting')
    w.syncs.loseLeaseAtRenew = Infinity
    // The listings it archived are no longer live: a second count would see 0 of 4.
    w.syncs.live = ids(4)
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.equal(w.syncs.sync(id).counts.archived, 6)
    assert.equal(w.syncs.calls.filter((call) => call === 'listArchives (tx)').length, 2)
    assert.equal(w.syncs.sync(id).total, 10, 'listed once')
  })
})

/** A partial sync of `count` new rows (on a plan with room for them all). */
function newRows(w: World, count: number, simulated = false) {
  w.directory.planView = plan(10_000, 10_000, 10_000, 10_000)
  return w.syncs.seed(
    { simulated },
    ids(count, 'NEW').map((externalId, index) => ({
      position: index + 1,
      kind: 'upsert' as const,
      externalId,
      payload: body(externalId),
    }))
  )
}

test.group('RunSync: the app disabled, or left without a live token', () => {
  test('disabled while the first batch runs: the rows of that batch are written, the next batch is not; failed, the next sync sent', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = newRows(w, BATCH * 2 + 50)
    w.syncs.nextId = 3
    // Asked when it starts (1) and before each later batch (2, 3…): disabled after the first.
    w.standing.onAsk = (asked) => {
      if (asked === 2) w.standing.standing = 'disabled'
    }
    assert.equal(await w.runSync.execute(id), 'finished')
    const sync = w.syncs.sync(id)
    assert.include(sync, { state: 'failed', processed: BATCH })
    assert.equal(sync.counts.created, BATCH)
    assert.deepEqual(sync.failure, { reason: 'app_unavailable', standing: 'disabled' })
    assert.lengthOf(w.listings.rows, BATCH, 'only the first batch written')
    assert.lengthOf(w.appEvents.emitted, 0)
    assert.deepEqual(w.runner.sent.at(-1)?.data, { syncId: 3 })
  })

  test('every token revoked before it starts: nothing written, failed (no_live_token); a simulation stops too', async ({
    assert,
  }) => {
    const w = syncWorld()
    w.standing.standing = 'no_live_token'
    const id = newRows(w, 3)
    await w.runSync.execute(id)
    assert.deepEqual(w.syncs.sync(id).failure, {
      reason: 'app_unavailable',
      standing: 'no_live_token',
    })
    assert.include(w.syncs.sync(id), { state: 'failed', processed: 0 })
    assert.lengthOf(w.listings.rows, 0)

    const simulated = syncWorld()
    const other = newRows(simulated, BATCH + 1, true)
    simulated.standing.onAsk = (asked) => {
      if (asked === 2) simulated.standing.standing = 'disabled'
    }
    await simulated.runSync.execute(other)
    assert.include(simulated.syncs.sync(other), { state: 'failed', processed: 0 })
  })

  test('an active app: asked once when it starts and once before each later read of a batch', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = newRows(w, BATCH * 2 + 1)
    await w.runSync.execute(id)
    assert.equal(w.syncs.sync(id).state, 'done')
    // Batches of 100, 100 and 1, then the read that finds none left.
    assert.equal(w.standing.asked, 4)
  })
})

test.group('RunSync: a sync that keeps failing at one row', () => {
  test(`started ${MAX_STARTS} times at the same row without getting further: the next start fails it (no row written) and sends the agency's next sync`, async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = newRows(w, 2)
    w.syncs.nextId = 5
    // A worker that dies on the row: no catch runs, its lease lapses, the job comes back.
    const pending = w.syncs.pending.bind(w.syncs)
    let deaths = 0
    w.syncs.pending = async () => {
      deaths++
      throw new Error('the worker died here')
    }
    for (let start = 1; start <= MAX_STARTS; start++) {
      await assert.rejects(() => w.runSync.execute(id), /died here/)
      assert.equal(w.syncs.sync(id).state, 'running', `still running after start ${start}`)
    }
    w.syncs.pending = pending
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.equal(deaths, MAX_STARTS)
    assert.include(w.syncs.sync(id), { state: 'failed', processed: 0 })
    assert.deepEqual(w.syncs.sync(id).failure, { reason: 'kept_failing', starts: MAX_STARTS })
    assert.lengthOf(w.listings.rows, 0)
    assert.deepEqual(w.runner.sent.at(-1)?.data, { syncId: 5 })
  })

  test('a start that got further counts from 1 again: three faults each after a batch of progress do not give it up', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = newRows(w, BATCH * 4)
    // Each start does one batch, then loses its worker (the lease lost here).
    w.syncs.loseLeaseAtRenew = 1
    for (let start = 1; start <= 4; start++) {
      assert.equal(await w.runSync.execute(id), 'waiting')
      w.syncs.renewals = 0
      assert.equal(w.syncs.sync(id).starts, 1, `start ${start} is the first at its row`)
    }
    w.syncs.loseLeaseAtRenew = Infinity
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.include(w.syncs.sync(id), { state: 'done', processed: BATCH * 4 })
  })

  test("the job's last retry gives up with the same reason", async ({ assert }) => {
    const w = syncWorld()
    const id = newRows(w, 1)
    await w.runSync.giveUp(id)
    assert.deepEqual(w.syncs.sync(id).failure, { reason: 'kept_failing', starts: MAX_STARTS })
  })
})

test.group('Rows too large to read', () => {
  /** A row whose JSON text is exactly `bytes` bytes of UTF-8 (padding with `char`). */
  function rowOf(externalId: string, bytes: number, char = 'x') {
    const base = JSON.stringify({ ExternalId: externalId, Zz: '' })
    const width = Buffer.byteLength(char)
    const room = bytes - Buffer.byteLength(base)
    const payload = JSON.stringify({ ExternalId: externalId, Zz: char.repeat(room / width) })
    return { externalId, payload }
  }

  test(`on arrival: a row of ${MAX_ROW_BYTES} bytes is stored; one of ${MAX_ROW_BYTES + 1} (or of multi-byte characters over the edge) is rejected without its payload`, async ({
    assert,
  }) => {
    const w = syncWorld()
    const rows = [
      rowOf('EDGE-1', MAX_ROW_BYTES),
      rowOf('OVER-1', MAX_ROW_BYTES + 1),
      // 131 073 two-byte characters: fewer characters than MAX_ROW_BYTES, more bytes.
      rowOf('WIDE-1', MAX_ROW_BYTES + 2 + 26, 'ñ'),
    ]
    assert.equal(Buffer.byteLength(rows[0].payload), MAX_ROW_BYTES)
    assert.equal(Buffer.byteLength(rows[1].payload), MAX_ROW_BYTES + 1)
    assert.isBelow(rows[2].payload.length, MAX_ROW_BYTES)
    assert.isAbove(Buffer.byteLength(rows[2].payload), MAX_ROW_BYTES)
    const started = await w.starter.execute({ id: APP_ID }, AGENCY, {
      mode: 'partial',
      simulate: false,
      confirmArchives: false,
      rows,
      archives: [],
      bodyHash: 'h',
    })
    assert.isTrue(started.ok)
    const stored = w.syncs.rowsOf(1)
    assert.isNotNull(stored[0].payload)
    assert.isUndefined(stored[0].outcome)
    for (const row of stored.slice(1)) {
      assert.include(row, { outcome: 'rejected', payload: null })
      assert.deepEqual(row.rejection, { ok: false, reason: 'row_too_large' })
    }
  })

  test('a stored row the worker may not read (oversize): rejected as too large, the others go on', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = newRows(w, 2)
    const pending = w.syncs.pending.bind(w.syncs)
    w.syncs.pending = async (...args) =>
      (await pending(...args)).map((row) =>
        row.position === 1 ? { ...row, payload: null, oversize: true } : row
      )
    await w.runSync.execute(id)
    assert.deepEqual(w.syncs.outcomes(id), { 1: 'rejected', 2: 'created' })
    assert.deepEqual(w.syncs.rowsOf(id)[0].rejection, { ok: false, reason: 'row_too_large' })
  })
})

test.group('StartSync: a simulation and the guard on arrival', () => {
  async function simulate(live: number, kept: number, simulated = true) {
    const w = syncWorld()
    w.syncs.live = ids(live)
    const started = await w.starter.execute({ id: APP_ID }, AGENCY, {
      mode: 'full',
      simulate: simulated,
      confirmArchives: false,
      rows: ids(kept).map((externalId) => ({
        externalId,
        payload: JSON.stringify(body(externalId)),
      })),
      archives: [],
      bodyHash: 'h',
    })
    return { w, started }
  }

  test('Simular of 6 of 10 is stored (not refused), saying a real run needs ConfirmarBajas; 5 of 10 says it does not; the real 6 of 10 is refused', async ({
    assert,
  }) => {
    const over = await simulate(10, 4)
    assert.isTrue(over.started.ok)
    assert.isTrue(over.started.ok && over.started.value.confirmationRequired)
    assert.lengthOf(over.w.runner.sent, 1, 'its job is queued')

    const under = await simulate(10, 5)
    assert.isFalse(under.started.ok ? under.started.value.confirmationRequired : true)

    const real = await simulate(10, 4, false)
    assert.isFalse(real.started.ok)
  })
})
