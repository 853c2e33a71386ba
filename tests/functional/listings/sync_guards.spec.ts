/*
 * A stock sync judging itself as it goes (docs/design.md §25), end to end on
 * the real database: the drop guard applied again when a full sync starts (a
 * Completa queued behind a 2 000-row Parcial), a simulation that says what the
 * guard guards, an app disabled (or left without a live token) mid-sync, a
 * worker that dies on the same row every time (a real `jobs:work` process with
 * the production heap flags), and the worker's bound on the bytes of rows it
 * holds. The figures measured are printed.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ChildProcess } from 'node:child_process'
import JobRunner from '#core/jobs/runner'
import SetAppEnabled from '#apps/services/set_app_enabled'
import RevokeTokens from '#apps/services/revoke_tokens'
import { STOCK_SYNC } from '#listings/queues'
import { rowRejectionErrors } from '#listings/http/problems'
import { MAX_STARTS } from '#listings/services/run_sync'
import SyncStore, { BATCH_BYTES, MAX_ROW_BYTES } from '#listings/stores/sync_store'
import { forgetCredentials, issueToken } from '#tests/helpers/apps'
import { killProcess, startWorkerProcess } from '#tests/helpers/worker_process'
import { until } from '#tests/helpers/until'
import { listingBody, setup, uniqueExternalId } from './support.js'

const PLAN = { capacity: 5000, alta: 5000, media: 5000, baja: 5000 }
/** The worker's flags in production (docs/operations.md). */
const WORKER_HEAP_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=4']

type World = Awaited<ReturnType<typeof setup>>

const rowsOf = (count: number) => Array.from({ length: count }, () => listingBody())

async function post(client: any, w: World, body: object, token = w.token) {
  return client.post(`${w.base}/sincronizaciones`).bearerToken(token).json(body)
}

async function run(id: number) {
  const runner = await app.container.make(JobRunner)
  await runner.runNow(STOCK_SYNC, { syncId: id })
}

async function show(client: any, w: World, id: number, token = w.token) {
  const shown = await client.get(`${w.base}/sincronizaciones/${id}`).bearerToken(token)
  shown.assertStatus(200)
  return shown.body()
}

/** The agency's listings by state. */
async function listingStates(w: World) {
  const { rows } = await db.rawQuery(
    `select count(*) filter (where state <> 'archived')::int as live,
            count(*) filter (where state = 'archived')::int as archived
     from listings where agency_id = ?`,
    [w.fixture.agency.id]
  )
  return rows[0] as { live: number; archived: number }
}

/** The sync's stored rows: how many, how many are archives, how many have a result. */
async function storedRows(id: number) {
  const { rows } = await db.rawQuery(
    `select count(*)::int as rows, count(*) filter (where kind = 'archive')::int as archives,
            count(outcome)::int as results
     from listing_sync_rows where sync_id = ?`,
    [id]
  )
  return rows[0] as { rows: number; archives: number; results: number }
}

test.group('Stock sync: the drop guard when a full sync starts', () => {
  test('a Completa naming 10 listings, queued behind a Parcial creating 2 000: Fallida with Problema.Extensions.Bajas 2000, nothing archived or written; with ConfirmarBajas the same race archives', async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const kept = rowsOf(10)
    const seeded = await post(client, w, { Modo: 'Parcial', Publicaciones: kept })
    seeded.assertStatus(202)
    await run(seeded.body().Id)

    // The Completa arrives while the Parcial still waits: 0 of 10 left out then.
    const parcial = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(2000) })
    parcial.assertStatus(202)
    const completa = await post(client, w, { Modo: 'Completa', Publicaciones: kept })
    completa.assertStatus(202)
    const started = Date.now()
    await run(parcial.body().Id)
    const parcialSeconds = (Date.now() - started) / 1000
    assert.deepEqual(await listingStates(w), { live: 2010, archived: 0 })
    await run(completa.body().Id)

    const failed = await show(client, w, completa.body().Id)
    assert.equal(failed.Estado, 'Fallida')
    assert.isString(failed.Terminada)
    assert.equal(failed.Problema.Status, 409)
    assert.deepEqual(failed.Problema.Extensions, { Bajas: 2000 })
    assert.property(failed.Problema.Errors, 'ConfirmarBajas')
    assert.match(failed.Problema.Detail, /2000 de las 2010/)
    assert.deepEqual(failed.Resumen, {
      Creadas: 0,
      Actualizadas: 0,
      SinCambios: 0,
      Archivadas: 0,
      Rechazadas: 0,
    })
    assert.include(failed, { Total: 10, Procesadas: 0 })
    assert.deepEqual(await storedRows(completa.body().Id), { rows: 10, archives: 0, results: 0 })
    assert.deepEqual(await listingStates(w), { live: 2010, archived: 0 }, 'nothing archived')
    const { rows: events } = await db.rawQuery(
      `select count(*)::int as n from app_events where app_id = ? and kind = 'SincronizacionTerminada'
       and payload->'Recurso'->>'href' like ?`,
      [w.app.id, `%/sincronizaciones/${completa.body().Id}`]
    )
    assert.equal(events[0].n, 0)

    // The control: the same race, confirmed, archives what it leaves out when it starts.
    const more = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(20) })
    const confirmed = await post(client, w, {
      Modo: 'Completa',
      ConfirmarBajas: true,
      Publicaciones: kept,
    })
    confirmed.assertStatus(202)
    await run(more.body().Id)
    await run(confirmed.body().Id)
    const done = await show(client, w, confirmed.body().Id)
    assert.equal(done.Estado, 'Terminada')
    assert.notProperty(done, 'Problema')
    assert.include(done.Resumen, { Archivadas: 2020, SinCambios: 10 })
    assert.deepEqual(await listingStates(w), { live: 10, archived: 2020 })
    console.log(
      `    Parcial of 2 000 run in ${parcialSeconds.toFixed(1)} s; the Completa queued behind it: Fallida, ` +
        `Bajas 2000 of 2010, 0 archived; confirmed behind 20 more: Archivadas 2020`
    )
  }).timeout(600_000)

  test('a Simular Completa is not refused: 202 with ConfirmacionRequerida (25 of 30 left out), and the list built when it starts says it again (30 of 35); one naming every listing: false', async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const live = rowsOf(30)
    const seeded = await post(client, w, { Modo: 'Parcial', Publicaciones: live })
    await run(seeded.body().Id)

    const parcial = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(5) })
    const simulated = await post(client, w, {
      Modo: 'Completa',
      Simular: true,
      Publicaciones: live.slice(0, 5),
    })
    simulated.assertStatus(202)
    assert.isTrue(simulated.body().ConfirmacionRequerida)
    await run(parcial.body().Id)
    await run(simulated.body().Id)
    const shown = await show(client, w, simulated.body().Id)
    assert.include(shown, { Estado: 'Terminada', Simulada: true, ConfirmacionRequerida: true })
    assert.equal(shown.Resumen.Archivadas, 30, 'what a confirmed run would archive')
    assert.deepEqual(
      await listingStates(w),
      { live: 35, archived: 0 },
      'a simulation writes nothing'
    )

    // A real run of the same is still refused on arrival (409).
    const real = await post(client, w, { Modo: 'Completa', Publicaciones: live.slice(0, 5) })
    real.assertStatus(409)
    assert.equal(real.body().Extensions.Bajas, 30)

    const whole = await post(client, w, {
      Modo: 'Completa',
      Simular: true,
      Publicaciones: live,
    })
    whole.assertStatus(202)
    assert.isFalse(whole.body().ConfirmacionRequerida)
    await run(whole.body().Id)
    assert.isFalse((await show(client, w, whole.body().Id)).ConfirmacionRequerida)
  }).timeout(120_000)
})

/**
 * A SyncStore whose first lease renewal (the end of the first batch) runs
 * `then` first: what happens to the app while that batch was being written.
 */
function afterFirstBatch(then: () => Promise<void>) {
  let renewals = 0
  class AfterFirstBatch extends SyncStore {
    async renew(...args: Parameters<SyncStore['renew']>) {
      if (++renewals === 1) await then()
      return super.renew(...args)
    }
  }
  return AfterFirstBatch
}

test.group('Stock sync: the app disabled mid-sync', () => {
  test('350 new rows, the app disabled (ace app:disable) during the first batch: its 100 rows written, the other 250 not; Fallida, Problema 403', async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const posted = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(350) })
    posted.assertStatus(202)
    const enabling = await app.container.make(SetAppEnabled)
    app.container.swap(SyncStore, () => {
      const Store = afterFirstBatch(async () => {
        const disabled = await enabling.execute(w.app.id, false)
        assert.isTrue(disabled.ok)
      })
      return new Store()
    })
    try {
      await run(posted.body().Id)
    } finally {
      app.container.restore(SyncStore)
    }
    assert.deepEqual(await listingStates(w), { live: 100, archived: 0 })
    assert.deepEqual(await storedRows(posted.body().Id), { rows: 350, archives: 0, results: 100 })

    // Enabled again, its token reads the sync.
    await enabling.execute(w.app.id, true)
    await forgetCredentials()
    const shown = await show(client, w, posted.body().Id)
    assert.include(shown, { Estado: 'Fallida', Total: 350, Procesadas: 100 })
    assert.equal(shown.Resumen.Creadas, 100)
    assert.equal(shown.Problema.Status, 403)
    assert.match(shown.Problema.Detail, /deshabilitada/)
    console.log('    disabled during batch 1 of 350 rows: 100 written, 250 not, Fallida')
  }).timeout(120_000)

  test('every token revoked during the first batch: the same stop (no live token); a new token reads it', async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const posted = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(150) })
    posted.assertStatus(202)
    const revoking = await app.container.make(RevokeTokens)
    app.container.swap(SyncStore, () => {
      const Store = afterFirstBatch(async () => {
        await revoking.execute({ appId: w.app.id })
      })
      return new Store()
    })
    try {
      await run(posted.body().Id)
    } finally {
      app.container.restore(SyncStore)
    }
    assert.deepEqual(await listingStates(w), { live: 100, archived: 0 })
    const { token } = await issueToken(w.app.id)
    const shown = await show(client, w, posted.body().Id, token)
    assert.include(shown, { Estado: 'Fallida', Procesadas: 100 })
    assert.equal(shown.Problema.Status, 403)
    assert.match(shown.Problema.Detail, /credenciales vigentes/)
  }).timeout(120_000)
})

test.group('Stock sync: a worker that dies on the same row every time', () => {
  test(`jobs:work under the production heap flags, killed on one row at each start (as by that row's memory): after ${MAX_STARTS} deaths the next start ends the sync Fallida, and the agency's next sync runs`, async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const poison = uniqueExternalId('poison')
    const rows = [...rowsOf(20), listingBody({ ExternalId: poison }), ...rowsOf(20)]
    const first = await post(client, w, { Modo: 'Parcial', Publicaciones: rows })
    first.assertStatus(202)
    const later = await post(client, w, { Modo: 'Parcial', Publicaciones: rowsOf(3) })
    later.assertStatus(202)

    const worker = () =>
      startWorkerProcess([STOCK_SYNC], { SYNC_LEASE_SECONDS: '15', DIE_ON_EXTERNAL_ID: poison }, [
        ...WORKER_HEAP_FLAGS,
        '--import',
        app.makePath('tests/helpers/die_on_row.js'),
      ])
    const children: ChildProcess[] = []
    let deaths = 0
    const startedAt = Date.now()
    try {
      children.push(worker())
      // A supervisor (systemd, the orchestrator) starts a new worker when one dies.
      const settled = await until(
        async () => {
          const current = children.at(-1)!
          if (current.exitCode !== null || current.signalCode !== null) {
            deaths++
            children.push(worker())
          }
          const { rows: syncs } = await db.rawQuery(
            'select id, state, processed from listing_syncs where id = any(?::bigint[]) order by id',
            [[first.body().Id, later.body().Id]]
          )
          return syncs as { id: number; state: string; processed: number }[]
        },
        (syncs) => syncs[1]?.state === 'done' || syncs[0]?.state === 'done',
        280_000
      )
      const seconds = (Date.now() - startedAt) / 1000
      assert.deepEqual(
        settled.map((sync) => sync.state),
        ['failed', 'done'],
        JSON.stringify(settled)
      )
      assert.equal(deaths, MAX_STARTS, 'the worker died at each of the starts, then no more')
      const failed = await show(client, w, first.body().Id)
      assert.include(failed, { Estado: 'Fallida', Procesadas: 0 })
      assert.equal(failed.Problema.Status, 500)
      assert.match(failed.Problema.Detail, new RegExp(`${MAX_STARTS} veces`))
      assert.deepEqual(await storedRows(first.body().Id), { rows: 41, archives: 0, results: 0 })
      const next = await show(client, w, later.body().Id)
      assert.include(next, { Estado: 'Terminada' })
      assert.equal(next.Resumen.Creadas, 3)
      assert.deepEqual(await listingStates(w), { live: 3, archived: 0 })
      console.log(
        `    worker (${WORKER_HEAP_FLAGS.join(' ')}) killed on row 21 at ${deaths} starts; ` +
          `the sync Fallida and the agency's next one Terminada ${seconds.toFixed(0)} s after the first start`
      )
    } finally {
      for (const child of children) await killProcess(child)
    }
  }).timeout(300_000)
})

test.group("Stock sync: the worker's bound on the rows it holds", () => {
  test(`a batch ends at the row that takes its payloads past ${BATCH_BYTES} bytes; a stored payload over ${MAX_ROW_BYTES} bytes is not read and its row ends Rechazada`, async ({
    client,
    assert,
  }) => {
    const w = await setup({ plan: PLAN })
    const syncs = await app.container.make(SyncStore)
    // Rows stored as they were before the arrival check (a deploy's queue): ten of about
    // 200 000 bytes, the third one 300 000.
    const padded = (index: number) => {
      const body = listingBody({ Zz: 'x'.repeat(index === 2 ? 300_000 : 200_000) })
      return {
        position: index + 1,
        kind: 'upsert' as const,
        externalId: body.ExternalId,
        payload: JSON.stringify(body),
      }
    }
    const rows = Array.from({ length: 10 }, (_, index) => padded(index))
    const sync = await db.transaction(async (tx) => {
      const created = await syncs.create(
        {
          appId: w.app.id,
          agencyId: w.fixture.agency.id,
          adminEmail: w.adminMail,
          mode: 'partial',
          simulated: false,
          confirmArchives: false,
          confirmationRequired: false,
          archivesPending: false,
        },
        rows.length,
        tx
      )
      await syncs.insertRows(created.id, rows, tx)
      return created
    })
    const batch = await syncs.pending(sync.id, 100)
    // 0, 200, (the oversize one, not counted), 400, 600, 800, 1 000 KB start below 1 MiB; 1 200 KB does not.
    assert.deepEqual(
      batch.map((row) => [row.position, row.oversize ?? false, row.payload === null]),
      [
        [1, false, false],
        [2, false, false],
        [3, true, true],
        [4, false, false],
        [5, false, false],
        [6, false, false],
        [7, false, false],
      ]
    )
    // Rows of a usual size still come a hundred at a time.
    const usual = await post(client, w, {
      Modo: 'Parcial',
      Simular: true,
      Publicaciones: rowsOf(150),
    })
    assert.lengthOf(await syncs.pending(usual.body().Id, 100), 100)

    await run(sync.id)
    const { rows: results } = await db.rawQuery(
      'select position, outcome, rejection from listing_sync_rows where sync_id = ? order by position',
      [sync.id]
    )
    assert.isTrue(results.every((row: any) => row.outcome === 'rejected'))
    assert.deepEqual(results[2].rejection, { ok: false, reason: 'row_too_large' })
    assert.match(rowRejectionErrors(results[2].rejection)._[0], /más de 256 KiB/)
    assert.deepEqual(
      results[0].rejection,
      { ok: false, reason: 'unknown_members', details: [{ path: 'Zz' }] },
      'the others judged: the unknown member'
    )
  }).timeout(120_000)
})
