/*
 * Stock sync under faults (docs/design.md §15, issue 26 item 5): a worker
 * SIGKILLed mid-sync, PostgreSQL restarted (or every connection dropped)
 * mid-sync, two syncs of one agency posted at once, Idempotency-Key replays.
 *
 * After each fault the sync ends `Terminada` and the books balance: every row
 * of `listing_sync_rows` has exactly one result, `Procesadas` = `Total` =
 * the sum of the `Resumen`, each ExternalId has exactly one listing, every
 * created listing has its `Creada` result and the other way round, and its
 * photos and photo jobs were written with it.
 *
 * The workers are real: child `jobs:work --queues stock.sync` processes (as in
 * leads/worker_crash.spec.ts) with SYNC_LEASE_SECONDS=15, or the test process's
 * own runner with the lease shortened to 10 s. A worker's job that dies comes
 * back when its heartbeat stops (10 s + the 5 s supervisor pass + the queue's
 * 10 s retry delay), and takes the sync over once its lease has lapsed; with
 * the default 60 s lease the takeover would wait for it instead. The figures
 * measured are printed.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import pg from 'pg'
import type { ChildProcess } from 'node:child_process'
import env from '#start/env'
import { settings } from '#core/settings'
import JobRunner from '#core/jobs/runner'
import { ownedServer } from '#core/database/embedded'
import { STOCK_SYNC } from '#listings/queues'
import SyncStore from '#listings/stores/sync_store'
import { raw } from '#tests/helpers/http'
import { killProcess, startWorkerProcess } from '#tests/helpers/worker_process'
import { until } from '#tests/helpers/until'
import { listingBody, setup, uniqueExternalId } from './support.js'

const PLAN = { capacity: 5000, alta: 5000, media: 5000, baja: 5000 }
/** The lease of the child workers: longer than a batch of 100 rows takes on a busy machine, shorter than a job's comeback. */
const CHILD_LEASE_SECONDS = 15
const NOT_OWNED =
  'the suite does not own its PostgreSQL (DATABASE_URL is set): the pg_terminate_backend test covers it'

type World = Awaited<ReturnType<typeof setup>>
type Row = Record<string, unknown> & { ExternalId: string }
type Posted = { status: number; headers: Headers; body: any }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function world() {
  return setup({ plan: PLAN })
}

/** A worker process working only stock syncs, on the suite's database. */
const syncWorker = () =>
  startWorkerProcess([STOCK_SYNC], { SYNC_LEASE_SECONDS: String(CHILD_LEASE_SECONDS) })

const killed = killProcess

async function postSync(
  w: World,
  body: object,
  headers: Record<string, string> = {},
  query = ''
): Promise<Posted> {
  const response = await raw(`${w.base}/sincronizaciones${query}`, {
    method: 'POST',
    headers: {
      'Authorization': `Bearer ${w.token}`,
      'Content-Type': 'application/json',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  })
  return { status: response.status, headers: response.headers, body: await response.json() }
}

async function showSync(w: World, id: number) {
  const response = await raw(`${w.base}/sincronizaciones/${id}`, {
    headers: { Authorization: `Bearer ${w.token}` },
  })
  return (await response.json()) as any
}

/** The sync's row as stored, or null while the database cannot answer. */
async function stored(id: number) {
  try {
    const { rows } = await db.rawQuery(
      `select state, total, processed, created, updated, unchanged, archived, rejected,
              received_at, finished_at
       from listing_syncs where id = ?`,
      [id]
    )
    return rows[0] as {
      state: string
      total: number
      processed: number
      created: number
      updated: number
      unchanged: number
      archived: number
      rejected: number
      received_at: Date
      finished_at: Date | null
    }
  } catch {
    return null
  }
}

function newRows(
  count: number,
  overrides: (index: number) => Record<string, unknown> = () => ({})
) {
  return Array.from({ length: count }, (_, index) => listingBody(overrides(index)) as Row)
}

/**
 * The books of a finished sync balance: `Terminada`; one result per row;
 * `Procesadas` = `Total` = the sum of the `Resumen`; one listing per
 * ExternalId sent; the `Creada` results are exactly the listings that exist
 * and were not there before; one SincronizacionTerminada event.
 */
async function assertBooksBalance(
  assert: any,
  w: World,
  id: number,
  rows: Row[],
  expected: Partial<
    Record<'Creadas' | 'Actualizadas' | 'SinCambios' | 'Archivadas' | 'Rechazadas', number>
  >
) {
  const sync = await showSync(w, id)
  assert.equal(sync.Estado, 'Terminada', JSON.stringify(sync))
  assert.equal(sync.Total, rows.length)
  assert.equal(sync.Procesadas, sync.Total)
  const summed = Object.values(sync.Resumen as Record<string, number>).reduce((a, b) => a + b, 0)
  assert.equal(summed, sync.Total, JSON.stringify(sync.Resumen))
  for (const [name, count] of Object.entries(expected)) {
    assert.equal(sync.Resumen[name], count, `${name}: ${JSON.stringify(sync.Resumen)}`)
  }

  const { rows: counted } = await db.rawQuery(
    `select count(*)::int as rows, count(outcome)::int as results,
            count(*) filter (where payload is not null)::int as payloads
     from listing_sync_rows where sync_id = ?`,
    [id]
  )
  assert.deepEqual(counted[0], { rows: rows.length, results: rows.length, payloads: 0 })

  const externalIds = rows.map((row) => row.ExternalId.toLowerCase())
  const { rows: listings } = await db.rawQuery(
    `select lower(external_id) as external_id, count(*)::int as n from listings
     where agency_id = ? and lower(external_id) = any(?::text[]) group by 1`,
    [w.fixture.agency.id, externalIds]
  )
  assert.deepEqual(
    listings.filter((listing: any) => listing.n !== 1),
    [],
    'one listing per ExternalId'
  )
  const { rows: created } = await db.rawQuery(
    `select lower(external_id) as external_id from listing_sync_rows where sync_id = ? and outcome = 'created'`,
    [id]
  )
  assert.equal(created.length, sync.Resumen.Creadas)

  const { rows: events } = await db.rawQuery(
    `select count(*)::int as n from app_events
     where app_id = ? and kind = 'SincronizacionTerminada' and payload->'Recurso'->>'href' like ?`,
    [w.app.id, `%/sincronizaciones/${id}`]
  )
  // A simulation sends none: it writes nothing but itself and its results.
  assert.equal(
    events[0].n,
    sync.Simulada ? 0 : 1,
    'one SincronizacionTerminada event (none simulated)'
  )
  return { sync, listings: listings.length }
}

/** Every listing of these rows was written whole: its photos, their count and their jobs are all there. */
async function assertListingsWhole(assert: any, w: World, rows: Row[]) {
  const expected = new Map(
    rows.map((row) => [row.ExternalId.toLowerCase(), ((row.Fotos as string[]) ?? []).length])
  )
  const { rows: listings } = await db.rawQuery(
    `select lower(l.external_id) as external_id, l.photo_count, l.revision,
            (select count(*)::int from listing_photos p where p.listing_id = l.id) as photos,
            (select count(*)::int from listing_photos p where p.listing_id = l.id and exists (
               select 1 from pgboss.job j
               where j.name = 'photos.fetch' and (j.data->>'photoId')::int = p.id)) as jobs
     from listings l where l.agency_id = ? and lower(l.external_id) = any(?::text[])`,
    [w.fixture.agency.id, [...expected.keys()]]
  )
  const broken = listings.filter(
    (listing: any) =>
      listing.revision !== 1 ||
      listing.photo_count !== expected.get(listing.external_id) ||
      listing.photos !== listing.photo_count ||
      listing.jobs !== listing.photos
  )
  assert.deepEqual(broken, [], 'no listing half-written (revision 1, photos, count and jobs agree)')
  return listings.length
}

test.group('Stock sync faults: a worker killed mid-sync', () => {
  test('600 new rows; the worker SIGKILLed at 20–80 %: another worker finishes it, one result per row, one listing per ExternalId', async ({
    assert,
  }) => {
    const w = await world()
    const rows = newRows(600)
    const children: ChildProcess[] = [syncWorker()]
    try {
      const posted = await postSync(w, { Modo: 'Parcial', Publicaciones: rows })
      assert.equal(posted.status, 202, JSON.stringify(posted.body))
      const id = posted.body.Id as number
      const started = Date.now()
      // A third of the rows: a few batches in, several to go.
      await until(
        () => stored(id),
        (sync) => (sync?.processed ?? 0) >= 200,
        120_000
      )
      await killed(children[0])
      const killedAt = Date.now()
      const atKill = (await stored(id))!
      assert.isAtLeast(atKill.processed, 600 * 0.2, 'killed after 20 %')
      assert.isAtMost(atKill.processed, 600 * 0.8, 'killed before 80 %')
      assert.equal(atKill.state, 'running')

      children.push(syncWorker())
      const done = await until(
        () => stored(id),
        (sync) => sync?.state === 'done',
        150_000
      )
      assert.equal(done?.state, 'done', `not finished: ${JSON.stringify(done)}`)
      const resumedSeconds = (Date.now() - killedAt) / 1000
      const { listings } = await assertBooksBalance(assert, w, id, rows, {
        Creadas: 600,
        Rechazadas: 0,
      })
      assert.equal(listings, 600)
      await assertListingsWhole(assert, w, rows)
      console.log(
        `    worker SIGKILLed at ${atKill.processed}/600 rows (${((killedAt - started) / 1000).toFixed(1)} s in); ` +
          `another worker finished the sync ${resumedSeconds.toFixed(1)} s after the kill (lease ${CHILD_LEASE_SECONDS} s): ` +
          `600 results, 600 listings, Creadas 600`
      )
    } finally {
      for (const child of children) await killed(child)
    }
  }).timeout(300_000)
})

/**
 * Runs a sync of 400 new rows (every fourth with two photos) on the test
 * process's own worker, applies `fault` once a quarter of them is done, and
 * checks that it finishes with nothing lost or half-written.
 */
async function syncThroughFault(
  assert: any,
  fault: () => Promise<string>
): Promise<{ id: number; figures: string }> {
  const runner = await app.container.make(JobRunner)
  const lease = settings.syncLeaseSeconds
  settings.syncLeaseSeconds = 10
  await runner.work({ work: [STOCK_SYNC] })
  try {
    const w = await world()
    const rows = newRows(400, (index) =>
      index % 4 === 0
        ? {
            Fotos: [
              `http://127.0.0.1:9/sync-${index}-a.jpg`,
              `http://127.0.0.1:9/sync-${index}-b.jpg`,
            ],
          }
        : {}
    )
    const posted = await postSync(w, { Modo: 'Parcial', Publicaciones: rows })
    assert.equal(posted.status, 202, JSON.stringify(posted.body))
    const id = posted.body.Id as number
    await until(
      () => stored(id),
      (sync) => (sync?.processed ?? 0) >= 100,
      120_000
    )
    const before = (await stored(id))!
    assert.isBelow(before.processed, 400 * 0.8, 'the fault comes mid-sync')
    const faultAt = Date.now()
    const what = await fault()
    const done = await until(
      () => stored(id),
      (sync) => sync?.state === 'done',
      150_000
    )
    assert.equal(done?.state, 'done', `not finished: ${JSON.stringify(done)}`)
    const recoverySeconds = (Date.now() - faultAt) / 1000
    await assertBooksBalance(assert, w, id, rows, { Creadas: 400, Rechazadas: 0 })
    assert.equal(await assertListingsWhole(assert, w, rows), 400)
    return {
      id,
      figures: `${what} at ${before.processed}/400 rows; finished ${recoverySeconds.toFixed(1)} s later: 400 results, 400 listings whole (100 with 2 photos and their jobs)`,
    }
  } finally {
    settings.syncLeaseSeconds = lease
    await runner.stop()
  }
}

test.group('Stock sync faults: the database mid-sync', () => {
  test('PostgreSQL restarted while 400 rows sync: nothing lost, no listing half-written', async ({
    assert,
  }) => {
    const server = ownedServer()!
    const { figures } = await syncThroughFault(assert, async () => {
      const stoppedAt = Date.now()
      await server.stop()
      await server.start()
      return `PostgreSQL restarted (down ${Date.now() - stoppedAt} ms)`
    })
    console.log(`    ${figures}`)
  })
    .timeout(300_000)
    .skip(() => !ownedServer(), NOT_OWNED)

  test('every connection terminated three times while 400 rows sync (pg_terminate_backend): nothing lost, no listing half-written', async ({
    assert,
  }) => {
    const admin = new pg.Client({ connectionString: env.get('DATABASE_URL') })
    await admin.connect()
    try {
      const { figures } = await syncThroughFault(assert, async () => {
        let terminated = 0
        for (let round = 0; round < 3; round++) {
          const { rowCount } = await admin.query(
            `select pg_terminate_backend(pid) from pg_stat_activity
             where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`
          )
          terminated += rowCount ?? 0
          await sleep(150)
        }
        return `${terminated} backends terminated`
      })
      console.log(`    ${figures}`)
    } finally {
      await admin.end()
    }
  }).timeout(300_000)
})

test.group('Stock sync faults: two syncs of one agency at once', (group) => {
  let workers: ChildProcess[] = []
  group.setup(() => {
    workers = [syncWorker(), syncWorker()]
    return async () => {
      for (const child of workers) await killed(child)
    }
  })

  /** The sync's writes to listings: the earliest and latest instants (created_at or updated_at). */
  async function writesOf(w: World, externalIds: string[], column: 'created_at' | 'updated_at') {
    const { rows } = await db.rawQuery(
      `select min(${column}) as first, max(${column}) as last, count(*)::int as n from listings
       where agency_id = ? and external_id = any(?::text[])`,
      [w.fixture.agency.id, externalIds]
    )
    return rows[0] as { first: Date; last: Date; n: number }
  }

  test('two syncs of 150 rows posted at once, 100 ExternalIds in common, two workers: the first (by Id and Recibida) ends before the second starts', async ({
    assert,
  }) => {
    const w = await world()
    const shared = Array.from({ length: 100 }, () => uniqueExternalId('shared'))
    const inventory = (price: number) => [
      ...shared.map(
        (ExternalId) =>
          listingBody({ ExternalId, Precio: { Moneda: 'USD', Importe: price } }) as Row
      ),
      ...newRows(50),
    ]
    const sent = [inventory(30_000), inventory(31_000)]
    const answers = await Promise.all(
      sent.map((rows) => postSync(w, { Modo: 'Parcial', Publicaciones: rows }))
    )
    for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body))
    const [first, second] = answers
      .map((answer, index) => ({ id: answer.body.Id as number, rows: sent[index] }))
      .sort((a, b) => a.id - b.id)
    const settled = await until(
      () => Promise.all([stored(first.id), stored(second.id)]),
      (syncs) => syncs.every((sync) => sync?.state === 'done'),
      180_000
    )
    assert.deepEqual(
      settled.map((sync) => sync?.state),
      ['done', 'done']
    )
    const [a, b] = settled as NonNullable<(typeof settled)[number]>[]
    assert.isTrue(a.received_at <= b.received_at, 'Recibida in the order of the Ids')

    // The second saw the first's writes: its 100 shared rows update, they do not create.
    await assertBooksBalance(assert, w, first.id, first.rows, { Creadas: 150 })
    await assertBooksBalance(assert, w, second.id, second.rows, { Creadas: 50, Actualizadas: 100 })

    // Every write of the first comes before it ended; every write of the second after that.
    const firstOwn = first.rows.slice(100).map((row) => row.ExternalId)
    const secondOwn = second.rows.slice(100).map((row) => row.ExternalId)
    const firstCreated = await writesOf(w, [...shared, ...firstOwn], 'created_at')
    const secondUpdated = await writesOf(w, shared, 'updated_at')
    const secondCreated = await writesOf(w, secondOwn, 'created_at')
    assert.equal(firstCreated.n, 150)
    assert.isTrue(firstCreated.last < a.finished_at!, 'the first wrote before it ended')
    assert.isTrue(
      secondUpdated.first > a.finished_at! && secondCreated.first > a.finished_at!,
      'the second wrote nothing before the first ended'
    )
    const { rows: prices } = await db.rawQuery(
      `select price_amount::int as price, revision, count(*)::int as n from listings
       where agency_id = ? and external_id = any(?::text[]) group by 1, 2`,
      [w.fixture.agency.id, shared]
    )
    const lastPrice = (second.rows[0].Precio as { Importe: number }).Importe
    assert.deepEqual(prices, [{ price: lastPrice, revision: 2, n: 100 }], 'the second wrote last')
    console.log(
      `    two syncs posted at once: #${first.id} ran ${elapsedMs(a.received_at, a.finished_at!)} ms, ` +
        `#${second.id} wrote ${elapsedMs(a.finished_at!, secondUpdated.first)} ms after #${first.id} ended; ` +
        `Resumen ${JSON.stringify({ first: 'Creadas 150', second: 'Creadas 50, Actualizadas 100' })}`
    )
  }).timeout(300_000)

  test('a sync still being stored (its transaction open) when a second one is posted: the second waits, runs after it', async ({
    assert,
  }) => {
    const w = await world()
    const runner = await app.container.make(JobRunner)
    const send = runner.send
    // The first sync's job is sent last in its transaction: holding it there keeps that
    // transaction open, as storing 5 000 rows would, after the sync has its Id and rows.
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let held: number | null = null
    runner.send = async function (this: JobRunner, name: string, data: any, options?: any) {
      if (name === STOCK_SYNC && held === null) {
        held = data.syncId
        await gate
      }
      return send.call(this, name, data, options)
    } as typeof runner.send
    try {
      const shared = Array.from({ length: 20 }, () => uniqueExternalId('held'))
      const firstRows = shared.map(
        (ExternalId) =>
          listingBody({ ExternalId, Precio: { Moneda: 'USD', Importe: 20_000 } }) as Row
      )
      const secondRows = shared.map(
        (ExternalId) =>
          listingBody({ ExternalId, Precio: { Moneda: 'USD', Importe: 21_000 } }) as Row
      )
      const firstPost = postSync(w, { Modo: 'Parcial', Publicaciones: firstRows })
      await until(
        async () => held,
        (id) => id !== null,
        15_000
      )
      assert.isNotNull(held, "the first sync's transaction is open")
      const secondPost = postSync(w, { Modo: 'Parcial', Publicaciones: secondRows })
      const early = await Promise.race([secondPost.then(() => 'answered'), sleep(3_000)])
      if (early === 'answered') {
        // Give the second every chance to run ahead of the first.
        const secondId = (await secondPost).body.Id
        await until(
          () => stored(secondId),
          (sync) => sync?.state === 'done',
          60_000
        )
      }
      release()
      const [first, second] = await Promise.all([firstPost, secondPost])
      assert.equal(first.status, 202, JSON.stringify(first.body))
      assert.equal(second.status, 202, JSON.stringify(second.body))
      assert.equal(first.body.Id, held)
      assert.isBelow(first.body.Id, second.body.Id)
      const settled = await until(
        () => Promise.all([stored(first.body.Id), stored(second.body.Id)]),
        (syncs) => syncs.every((sync) => sync?.state === 'done'),
        180_000
      )
      const [a, b] = settled as NonNullable<(typeof settled)[number]>[]
      assert.isTrue(a.received_at < b.received_at, 'Recibida in the order of the Ids')
      await assertBooksBalance(assert, w, first.body.Id, firstRows, { Creadas: 20 })
      await assertBooksBalance(assert, w, second.body.Id, secondRows, { Actualizadas: 20 })
      const secondUpdated = await writesOf(w, shared, 'updated_at')
      assert.isTrue(secondUpdated.first > a.finished_at!, 'the second wrote after the first ended')
      console.log(
        `    the second POST, sent while the first's transaction was open, was ${early === 'answered' ? 'answered at once' : 'held'}; ` +
          `#${first.body.Id} created 20, then #${second.body.Id} updated them`
      )
    } finally {
      runner.send = send
      release()
    }
  }).timeout(300_000)
})

test.group('Stock sync faults: a simulation cut short', () => {
  test('Simular of 200 new rows on a plan of 150, the worker lost while storing its results (after the first 100): the results are those of one whole run (150 Creadas, 50 Rechazadas), no listing written', async ({
    assert,
  }) => {
    const w = await setup({ plan: { ...PLAN, capacity: 150 } })
    const rows = newRows(200)
    const posted = await postSync(w, { Modo: 'Parcial', Simular: true, Publicaciones: rows })
    assert.equal(posted.status, 202, JSON.stringify(posted.body))
    const id = posted.body.Id as number
    const runner = await app.container.make(JobRunner)

    // The worker's connection is lost while it stores the second hundred of results.
    class LostWhileRecording extends SyncStore {
      calls = 0
      async record(...args: Parameters<SyncStore['record']>) {
        if (++this.calls === 2) throw new Error('connection lost')
        return super.record(...args)
      }
    }
    app.container.swap(SyncStore, () => new LostWhileRecording())
    try {
      await assert.rejects(() => runner.runNow(STOCK_SYNC, { syncId: id }), /connection lost/)
    } finally {
      app.container.restore(SyncStore)
    }
    const cut = (await stored(id))!
    // Its lease lapses; the job runs again.
    await db.rawQuery(
      `update listing_syncs set lease_until = now() - interval '1 second' where id = ?`,
      [id]
    )
    await runner.runNow(STOCK_SYNC, { syncId: id })

    await assertBooksBalance(assert, w, id, rows, { Creadas: 150, Rechazadas: 50 })
    const { rows: written } = await db.rawQuery(
      'select count(*)::int as n from listings where agency_id = ?',
      [w.fixture.agency.id]
    )
    assert.equal(written[0].n, 0, 'a simulation writes no listing')
    console.log(
      `    simulation cut while storing its results (${cut.processed} of 200 stored then): ` +
        `re-run whole, Creadas 150, Rechazadas 50`
    )
  })
})

test.group("Stock sync: waiting for the agency's turn", () => {
  test('a sync whose job waited through its 100th retry (another sync of the agency still running) is not given up: it stays Pendiente, keeps a job coming, runs after the first', async ({
    assert,
  }) => {
    const w = await world()
    const runner = await app.container.make(JobRunner)
    const definition = runner.definitions().find((job) => job.name === STOCK_SYNC)!
    const externalId = uniqueExternalId('turn')
    const first = await postSync(w, {
      Modo: 'Parcial',
      Publicaciones: [listingBody({ ExternalId: externalId })],
    })
    const second = await postSync(w, {
      Modo: 'Parcial',
      Publicaciones: [
        listingBody({ ExternalId: externalId, Precio: { Moneda: 'USD', Importe: 40_000 } }),
      ],
    })
    assert.equal(first.status, 202)
    assert.equal(second.status, 202)
    // The first runs (a worker holds its turn) for longer than the second's job keeps retrying.
    const syncs = await app.container.make(SyncStore)
    assert.isNotNull(await syncs.claim(first.body.Id, 600))
    const jobsOf = async (id: number) =>
      (
        await db.rawQuery(
          `select count(*)::int as n from pgboss.job where name = ? and (data->>'syncId')::int = ?
           and state in ('created', 'retry')`,
          [STOCK_SYNC, id]
        )
      ).rows[0].n as number
    const waiting = await jobsOf(second.body.Id)

    const lastTry = runner.execute(
      definition,
      { syncId: second.body.Id },
      { id: 'last-try', name: STOCK_SYNC, retryCount: definition.queue!.retryLimit! }
    )
    await assert.rejects(() => lastTry, /waits for another sync/)
    assert.equal((await stored(second.body.Id))!.state, 'pending', 'not given up')
    assert.equal(await jobsOf(second.body.Id), waiting + 1, 'a new job is queued for it')

    // The first's worker dies; its lease lapses; the first runs, then the second.
    await db.rawQuery(
      `update listing_syncs set lease_until = now() - interval '1 second' where id = ?`,
      [first.body.Id]
    )
    await runner.runNow(STOCK_SYNC, { syncId: first.body.Id })
    await runner.runNow(STOCK_SYNC, { syncId: second.body.Id })
    const [a, b] = [await showSync(w, first.body.Id), await showSync(w, second.body.Id)]
    assert.deepEqual(
      [a.Estado, a.Resumen.Creadas, b.Estado, b.Resumen.Actualizadas],
      ['Terminada', 1, 'Terminada', 1]
    )
  })
})

function elapsedMs(from: Date, to: Date) {
  return to.getTime() - from.getTime()
}

test.group('Stock sync: Idempotency-Key', () => {
  test('same key and body → the same sync replayed (Idempotent-Replayed: true), one sync stored; another body → 422', async ({
    assert,
  }) => {
    const w = await world()
    const key = `sync-${uniqueExternalId()}`
    const body = { Modo: 'Parcial', Publicaciones: newRows(3) }
    const first = await postSync(w, body, { 'Idempotency-Key': key })
    assert.equal(first.status, 202, JSON.stringify(first.body))
    assert.isNull(first.headers.get('idempotent-replayed'))
    const again = await postSync(w, body, { 'Idempotency-Key': key })
    assert.equal(again.status, 202)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.body.Id, first.body.Id)
    assert.equal(again.headers.get('location'), first.headers.get('location'))
    assert.deepEqual(again.body, first.body)

    const other = await postSync(
      w,
      { ...body, Publicaciones: [...body.Publicaciones, listingBody()] },
      { 'Idempotency-Key': key }
    )
    assert.equal(other.status, 422, JSON.stringify(other.body))

    const { rows } = await db.rawQuery(
      `select count(*)::int as syncs,
              (select count(*)::int from pgboss.job j where j.name = ? and (j.data->>'syncId')::int = ?) as jobs
       from listing_syncs where agency_id = ?`,
      [STOCK_SYNC, first.body.Id, w.fixture.agency.id]
    )
    assert.deepEqual(rows[0], { syncs: 1, jobs: 1 })
  })

  test('eight identical POSTs with one key at once: one sync; the others replay it or answer 409 in-flight', async ({
    assert,
  }) => {
    const w = await world()
    const key = `sync-${uniqueExternalId()}`
    const body = { Modo: 'Parcial', Publicaciones: newRows(50) }
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => postSync(w, body, { 'Idempotency-Key': key }))
    )
    const ids = new Set(answers.filter((a) => a.status === 202).map((a) => a.body.Id))
    assert.equal(ids.size, 1, JSON.stringify(answers.map((a) => a.status)))
    assert.deepEqual(
      answers.filter((a) => a.status !== 202 && a.status !== 409).map((a) => a.status),
      []
    )
    const { rows } = await db.rawQuery(
      'select count(*)::int as n from listing_syncs where agency_id = ?',
      [w.fixture.agency.id]
    )
    assert.equal(rows[0].n, 1)
  })

  test('CSV: the same key and bytes with another ?modo or ?simular is another request → 422, not a replay', async ({
    assert,
  }) => {
    const w = await world()
    const row = listingBody()
    const csv =
      'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Precio.Moneda,Precio.Importe\n' +
      `${row.ExternalId},Toyota,Corolla,2.0 XEI CVT,${row.VersionYear},0,USD,1000\n`
    const key = `sync-${uniqueExternalId()}`
    const headers = { 'Content-Type': 'text/csv', 'Idempotency-Key': key }
    const first = await postSync(w, csv as any, headers, '?modo=Parcial&simular=true')
    assert.equal(first.status, 202, JSON.stringify(first.body))
    assert.isTrue(first.body.Simulada)
    const replayed = await postSync(w, csv as any, headers, '?modo=Parcial&simular=true')
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true')
    assert.equal(replayed.body.Id, first.body.Id)
    // The same bytes, but now for real: replaying the simulation would tell the dealer a real
    // sync was accepted while nothing will be written.
    const real = await postSync(w, csv as any, headers, '?modo=Parcial')
    assert.equal(real.status, 422, JSON.stringify(real.body))
  })
})
