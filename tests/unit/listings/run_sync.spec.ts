/*
 * RunSync alone (no PostgreSQL): each row judged by the rules of the single
 * request (CreateListing, ChangeListing on the fake listing store of
 * ./fakes.ts), archives first, unchanged rows found by a probe with no
 * write, archived listings never revived, a lost lease stopping the worker,
 * and a simulation whose writes are rolled back while its results stay. The
 * sync store and the unit of work that really rolls back are in ./sync_fakes.ts.
 */
import { test } from '@japa/runner'
import { currentYear } from '#listings/services/listing_rules'
import { BATCH } from '#listings/services/run_sync'
import { STOCK_SYNC } from '#listings/queues'
import { listingRow, plan } from './fakes.js'
import { syncWorld } from './sync_fakes.js'

/** A create body of the fake catalogue's Corolla (the wire's names, as a row's payload). */
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

type Row = { externalId: string | null; payload?: unknown; kind?: 'upsert' | 'archive' }

/** A sync of `rows` (upserts unless said), stored as StartSync leaves it. */
function seed(w: ReturnType<typeof syncWorld>, rows: Row[], simulated = false) {
  return w.syncs.seed(
    { simulated },
    rows.map((one, index) => ({
      position: index + 1,
      kind: one.kind ?? 'upsert',
      externalId: one.externalId,
      payload: one.payload,
    }))
  )
}

const upsert = (externalId: string, extra: Record<string, unknown> = {}): Row => ({
  externalId,
  payload: body(externalId, extra),
})
const archive = (externalId: string): Row => ({ externalId, kind: 'archive' })

/** The listing of the app as the store holds it. */
const stored = (w: ReturnType<typeof syncWorld>, externalId: string) =>
  w.listings.rows.find((row) => row.externalId === externalId)

test.group('RunSync: each row as the single request would do it', () => {
  test('created, updated, rejected (fields, unknown members, the rules, a missing Baja): one result each', async ({
    assert,
  }) => {
    const w = syncWorld()
    w.listings.rows.push(listingRow({ externalId: 'EXT-1', revision: 5 }))
    const id = seed(w, [
      upsert('NEW-1'),
      upsert('EXT-1', { Color: 'Rojo' }),
      upsert('BAD-1', { Kilometraje: 'mucho' }),
      upsert('BAD-2', { Desconocido: 1 }),
      upsert('BAD-3', { Marca: 'Ninguna' }),
      archive('NADIE-1'),
    ])

    assert.equal(await w.runSync.execute(id), 'finished')
    assert.deepEqual(w.syncs.outcomes(id), {
      1: 'created',
      2: 'updated',
      3: 'rejected',
      4: 'rejected',
      5: 'rejected',
      6: 'rejected',
    })
    const rows = w.syncs.rowsOf(id)
    // Stored in domain words (http/problems words them when read): the validator's field and
    // rule, the unknown member's path, the create's own failure, no listing to archive.
    const invalid = rows[2].rejection!
    assert.equal(invalid.reason, 'invalid_body', 'the field errors of the single POST')
    assert.deepInclude(
      (invalid.details as { field: string; rule: string }[]).map(({ field, rule }) => ({
        field,
        rule,
      })),
      { field: 'Kilometraje', rule: 'number' }
    )
    assert.deepEqual(rows[3].rejection, {
      ok: false,
      reason: 'unknown_members',
      details: [{ path: 'Desconocido' }],
    })
    assert.deepEqual(w.bodyMembers.operations, Array(5).fill('POST /v3/publicaciones/{adminmail}'))
    assert.equal(rows[4].rejection?.reason, 'invalid', "the create's own refusal")
    assert.deepEqual(rows[5].rejection, { ok: false, reason: 'no_listing' })

    assert.include(stored(w, 'NEW-1'), { revision: 1, state: 'active' })
    assert.include(stored(w, 'EXT-1'), { revision: 6, colour: 'Rojo' })
    const sync = w.syncs.sync(id)
    assert.include(sync, { state: 'done', processed: 6 })
    assert.deepEqual(sync.counts, {
      created: 1,
      updated: 1,
      unchanged: 0,
      archived: 0,
      rejected: 4,
    })
  })

  test("the batch's new listings are created in one unit of work with their results; quiet rows per batch, outside one", async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = seed(w, [upsert('NEW-1'), upsert('BAD-1', { Kilometraje: 'x' }), upsert('NEW-2')])
    await w.runSync.execute(id)
    const calls = w.syncs.calls.filter((call) => /^(record|holdUnfinished)/.test(call))
    // The new listings together, with their results; the refused row with the batch's quiet ones.
    assert.deepEqual(calls, ['holdUnfinished 1,3 (tx)', 'record 1,3 (tx)', 'record 2'])
    assert.include(w.listings.calls, 'insertMany 2 (tx)')
    // The creations' unit and the finish.
    assert.equal(w.unitOfWork.committed, 2)
  })

  test('the batch INSERT meets a listing created meanwhile: its creations go one by one, each with one result', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = seed(w, [upsert('NEW-1'), upsert('NEW-2')])
    w.listings.insertError = Object.assign(new Error('duplicate key'), {
      code: '23505',
      constraint: 'listings_agency_external',
    })
    await w.runSync.execute(id)
    assert.deepEqual(w.syncs.outcomes(id), { 1: 'created', 2: 'created' })
    assert.deepEqual(
      w.syncs.calls.filter((call) => /^(record|holdUnfinished)/.test(call)),
      [
        'holdUnfinished 1,2 (tx)',
        'holdUnfinished 1 (tx)',
        'record 1 (tx)',
        'holdUnfinished 2 (tx)',
        'record 2 (tx)',
      ]
    )
    assert.lengthOf(w.listings.rows, 2)
  })

  test("a row's write that fails on its own ends Rechazada (the others go on); a deadlock stops the run for the retry", async ({
    assert,
  }) => {
    const w = syncWorld()
    w.listings.rows.push(listingRow({ id: 1, externalId: 'EXT-1' }))
    w.listings.rows.push(listingRow({ id: 2, externalId: 'EXT-2' }))
    const id = seed(w, [upsert('EXT-1', { Color: 'Rojo' }), upsert('EXT-2', { Color: 'Azul' })])
    w.listings.beforeUpdate = () => {
      throw new Error('a bug')
    }
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.deepEqual(w.syncs.outcomes(id), { 1: 'rejected', 2: 'updated' })
    assert.deepEqual(w.syncs.rowsOf(id)[0].rejection, { ok: false, reason: 'unexpected' })

    const again = seed(w, [upsert('EXT-1', { Color: 'Verde' })])
    w.listings.beforeUpdate = () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' })
    }
    await assert.rejects(() => w.runSync.execute(again), /deadlock/)
    assert.deepEqual(w.syncs.outcomes(again), { 1: undefined }, 'left for the retry')
  })

  test('archives go first: the place a Baja frees is there for the row before it', async ({
    assert,
  }) => {
    const w = syncWorld()
    w.directory.planView = plan(1)
    w.listings.rows.push(listingRow({ externalId: 'OLD-1' }))
    const id = seed(w, [upsert('NEW-1'), archive('OLD-1')])

    await w.runSync.execute(id)
    assert.deepEqual(
      w.syncs.outcomes(id),
      { 1: 'created', 2: 'archived' },
      JSON.stringify(w.syncs.rowsOf(id))
    )
    assert.equal(stored(w, 'OLD-1')!.state, 'archived')
    assert.equal(stored(w, 'NEW-1')!.state, 'active')
    const records = w.syncs.calls.filter((call) => call.startsWith('record'))
    assert.deepEqual(records, ['record 2 (tx)', 'record 1 (tx)'])
  })

  test('the whole sync again: every row SinCambios by the probe, with no write, unit of work or job', async ({
    assert,
  }) => {
    const w = syncWorld()
    const rows = [upsert('NEW-1'), upsert('NEW-2', { Precio: { Moneda: 'USD', Importe: 100 } })]
    await w.runSync.execute(seed(w, rows))
    const before = structuredClone(w.listings.rows)
    const written = w.listings.calls.length
    const units = w.unitOfWork.committed
    const sent = w.runner.sent.length
    const syncCalls = w.syncs.calls.length

    const again = seed(w, rows)
    assert.equal(await w.runSync.execute(again), 'finished')
    assert.deepEqual(w.syncs.outcomes(again), { 1: 'unchanged', 2: 'unchanged' })
    assert.deepEqual(w.listings.rows, before, 'same revisions, same rows')
    const calls = w.listings.calls.slice(written)
    assert.deepEqual(
      calls.filter((call) => call.includes('(tx)') || /insert|update/.test(call)),
      [],
      `no write, no transaction: ${calls.join(', ')}`
    )
    assert.equal(w.unitOfWork.committed - units, 1, 'only the finish')
    assert.equal(w.runner.sent.length, sent, 'no job (photos or other)')
    assert.deepEqual(
      w.syncs.calls.slice(syncCalls).filter((call) => call.startsWith('record')),
      ['record 1,2'],
      'the quiet rows are recorded together, outside a transaction'
    )
  })
})

test.group('RunSync: archived listings are never revived', () => {
  test("a row naming an archived listing: rejected with the PUT's refusal; a Baja of it: SinCambios", async ({
    assert,
  }) => {
    const w = syncWorld()
    w.listings.rows.push(listingRow({ externalId: 'GONE-1', state: 'archived', revision: 9 }))
    w.listings.rows.push(listingRow({ id: 2, externalId: 'GONE-2', state: 'archived' }))
    const id = seed(w, [upsert('GONE-1', { Color: 'Rojo' }), archive('GONE-2')])

    await w.runSync.execute(id)
    assert.deepEqual(w.syncs.outcomes(id), { 1: 'rejected', 2: 'unchanged' })
    assert.deepEqual(w.syncs.rowsOf(id)[0].rejection, { ok: false, reason: 'archived' })
    assert.include(stored(w, 'GONE-1'), { state: 'archived', revision: 9, colour: 'Gris' })
    assert.notInclude(w.listings.calls, 'update (tx)')
  })
})

test.group('RunSync: turns and leases', () => {
  test('a lost lease stops the worker after its batch; the next one resumes and every row gets one result', async ({
    assert,
  }) => {
    const w = syncWorld()
    const count = BATCH + 30
    const id = seed(
      w,
      Array.from({ length: count }, (_, index) => upsert(`BAD-${index}`, { Kilometraje: 'x' }))
    )
    w.syncs.loseLeaseAtRenew = 1

    assert.equal(await w.runSync.execute(id), 'waiting')
    assert.equal(w.syncs.sync(id).processed, BATCH, 'the batch it judged is recorded')
    assert.notInclude(
      w.syncs.calls.map((call) => call.split(' ')[0]),
      'finish',
      'not finished by the worker that lost it'
    )
    assert.lengthOf(w.appEvents.emitted, 0)

    w.syncs.loseLeaseAtRenew = Infinity
    assert.equal(await w.runSync.execute(id), 'finished')
    const sync = w.syncs.sync(id)
    assert.include(sync, { state: 'done', processed: count })
    assert.equal(sync.counts.rejected, count)
    assert.isTrue(w.syncs.rowsOf(id).every((row) => row.outcome === 'rejected'))
  })

  test('a row another worker already did is neither written nor recorded again', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = seed(w, [upsert('NEW-1'), upsert('NEW-2')])
    const hold = w.syncs.holdUnfinished.bind(w.syncs)
    w.syncs.holdUnfinished = async (syncId, positions, tx) => {
      // The worker whose lease lapsed got there first.
      if (positions.includes(1)) {
        await w.syncs.record(syncId, [{ position: 1, outcome: 'created' }], tx)
      }
      return hold(syncId, positions, tx)
    }
    await w.runSync.execute(id)
    assert.isUndefined(stored(w, 'NEW-1'), 'no second create')
    assert.isDefined(stored(w, 'NEW-2'))
    assert.include(w.syncs.sync(id), { processed: 2 })
  })

  test('another worker holds the turn: waiting, nothing done; a finished sync: gone', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = seed(w, [upsert('NEW-1')])
    w.syncs.sync(id).state = 'running'
    w.syncs.heldElsewhere = true
    assert.equal(await w.runSync.execute(id), 'waiting')
    assert.deepEqual(w.syncs.outcomes(id), { 1: undefined })
    assert.lengthOf(w.listings.rows, 0)

    w.syncs.sync(id).state = 'done'
    assert.equal(await w.runSync.execute(id), 'gone')
  })

  test('the end: SincronizacionTerminada with the counts, the agency pruned, its next sync sent', async ({
    assert,
  }) => {
    const w = syncWorld()
    const id = seed(w, [upsert('NEW-1'), upsert('BAD-1', { Kilometraje: 'x' })])
    w.syncs.nextId = 42
    await w.runSync.execute(id)
    assert.lengthOf(w.appEvents.emitted, 1)
    const event = w.appEvents.emitted[0]
    assert.equal(event.topic, 'publicaciones')
    assert.equal(event.input.Tipo, 'SincronizacionTerminada')
    assert.deepEqual(event.input.Datos, {
      Creadas: 1,
      Actualizadas: 0,
      SinCambios: 0,
      Archivadas: 0,
      Rechazadas: 1,
    })
    assert.includeMembers(w.syncs.calls, ['prune', 'next'])
    assert.deepEqual(w.runner.sent.at(-1), {
      name: STOCK_SYNC,
      data: { syncId: 42 },
      inTransaction: false,
    })
  })

  test('an agency no longer linked to the app: every row rejected, the sync still ends', async ({
    assert,
  }) => {
    const w = syncWorld()
    w.syncDirectory.gone = true
    const id = seed(w, [upsert('NEW-1'), archive('OLD-1')])
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.deepEqual(w.syncs.outcomes(id), { 1: 'rejected', 2: 'rejected' })
    assert.lengthOf(w.listings.rows, 0)
  })
})

test.group('RunSync: a simulation', () => {
  test('computes every result, records them, and rolls back every write', async ({ assert }) => {
    const w = syncWorld()
    w.directory.planView = plan(2)
    w.listings.rows.push(listingRow({ externalId: 'EXT-1', revision: 5 }))
    w.listings.rows.push(listingRow({ id: 2, externalId: 'EXT-2', revision: 3 }))
    const before = structuredClone(w.listings.rows)
    const id = seed(
      w,
      [
        upsert('NEW-1'),
        upsert('EXT-1', { Color: 'Rojo' }),
        upsert('BAD-1', { Kilometraje: 'x' }),
        archive('EXT-2'),
      ],
      true
    )

    assert.equal(await w.runSync.execute(id), 'finished')
    // The plan has 2 places, both taken: NEW-1 is created only because the Baja of EXT-2,
    // judged first, would have freed one — later rows see what earlier ones would have done.
    assert.deepEqual(w.syncs.outcomes(id), {
      1: 'created',
      2: 'updated',
      3: 'rejected',
      4: 'archived',
    })
    assert.deepEqual(w.listings.rows, before, 'no listing written')
    assert.isAtLeast(w.unitOfWork.rolledBack, 1)
    assert.deepEqual(
      w.syncs.calls.filter((call) => call.startsWith('record')),
      ['record 4,2,3,1 (tx)'],
      'recorded after the rollback, together in a unit of their own'
    )
    assert.include(w.syncs.sync(id), { state: 'done', processed: 4 })
    assert.lengthOf(w.appEvents.emitted, 0, 'a simulation sends no event')
  })
})

test.group('RunSync: a row says what it did not do (docs/design.md §24)', () => {
  test('another Version: rejected; an ignored Fotos list and a full Alta quota: their notices with the result', async ({
    assert,
  }) => {
    const w = syncWorld()
    w.directory.planView = plan(10, 1, 5, 5)
    w.listings.addActive(1, 'high')
    const photos = { year: currentYear() - 2, mileage: 30_000, photoCount: 2 }
    w.listings.rows.push(listingRow({ id: 1, externalId: 'EXT-1', ...photos }))
    w.listings.rows.push(listingRow({ id: 2, externalId: 'EXT-2' }))
    w.photoSet.sent.set(1, ['https://a', 'https://b'])
    const used = { VersionYear: currentYear() - 2, Kilometraje: 30_000 }
    const id = seed(w, [
      upsert('EXT-1', { ...used, Fotos: ['https://c', 'https://d'] }),
      upsert('EXT-2', { Version: '2.0 SEG CVT' }),
      upsert('NEW-1', { Exposicion: 'Alta' }),
      upsert('NEW-2', { Exposicion: 'Media' }),
    ])
    assert.equal(await w.runSync.execute(id), 'finished')
    assert.deepEqual(w.syncs.outcomes(id), {
      1: 'unchanged',
      2: 'rejected',
      3: 'created',
      4: 'created',
    })
    const rows = w.syncs.rowsOf(id)
    assert.deepEqual(rows[0].notices, [{ field: 'photos', issue: 'same_count' }])
    assert.equal(rows[1].rejection?.reason, 'invalid')
    assert.deepEqual(rows[2].notices, [
      { field: 'exposure', issue: 'quota_full', requested: 'high', given: 'medium' },
    ])
    assert.isEmpty(rows[3].notices ?? [])
    assert.equal(stored(w, 'EXT-2')!.versionName, '2.0 XEI CVT')
  })
})
