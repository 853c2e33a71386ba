/*
 * Activation racing a suspension of its agency or responsible person
 * (docs/design.md §7, §13): a suspension locks the agency (or operator) row,
 * sets `suspended` and suspends the active listings in one transaction, which
 * cannot see a listing that is only being activated. Really concurrent: the
 * test holds one side's transaction open while the other runs over HTTP.
 */
import { test } from '@japa/runner'
import type { Assert } from '@japa/assert'
import type { ApiClient, ApiRequest, ApiResponse } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { AgencyHooks } from '#agencies/hooks'
import SetSuspension from '#agencies/services/set_suspension'
import AgencyService from '#agencies/services/agency_service'
import { createListing, listingBody } from '#tests/helpers/listings'
import { uniqueEmail } from '#tests/helpers/agencies'
import { until } from '#tests/helpers/until'
import { setup } from './support.js'

/** Sessions of this database waiting on a lock (row locks show as `transactionid` or `tuple`). */
async function lockWaits(type?: string) {
  const row = await db
    .from('pg_stat_activity')
    .whereRaw('datname = current_database()')
    .where('wait_event_type', 'Lock')
    .if(type, (query) => query.where('wait_event', type!))
    .count('* as total')
    .first()
  return Number(row.total)
}

/** Sessions waiting on an advisory lock, once one is (or 0 after 10 s). */
const advisoryWaits = () =>
  until(
    () => lockWaits('advisory'),
    (total) => total >= 1,
    10_000
  )

/** A promise and whether it has settled yet. */
function tracked<T>(promise: Promise<T>) {
  const state = { settled: false, promise }
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true)
  )
  return state
}

/** What SetSuspension does for an agency or one person, left uncommitted in `trx`. */
async function suspendIn(
  trx: TransactionClientContract,
  table: 'agencies' | 'operators',
  id: number
) {
  await trx.from(table).where('id', id).forUpdate().select('id')
  await trx.from(table).where('id', id).update({ suspended: true })
  let suspended = 0
  for (const effects of await (await app.container.make(AgencyHooks)).suspensionEffects())
    suspended +=
      table === 'agencies'
        ? await effects.agencySuspended(id, trx)
        : await effects.operatorSuspended(id, trx)
  return suspended
}

/**
 * With a suspension of `table`'s row `id` left uncommitted (it suspends
 * `suspended` active listings), the activation `request` must wait for it, and
 * once it commits be refused (409, `reason`).
 */
async function refusedDuringSuspension(
  assert: Assert,
  suspension: { table: 'agencies' | 'operators'; id: number; suspended: number },
  request: () => PromiseLike<ApiResponse>,
  reason: RegExp
) {
  const holder = await db.transaction()
  try {
    assert.equal(await suspendIn(holder, suspension.table, suspension.id), suspension.suspended)
    const activation = tracked(Promise.resolve(request()))
    assert.isAtLeast(await until(lockWaits, (total) => total >= 1, 10_000), 1)
    assert.isFalse(activation.settled, 'the activation must wait for the suspension')
    await holder.commit()
    const response = await activation.promise
    response.assertStatus(409)
    assert.match(response.body().Errors._[0], reason)
  } finally {
    if (!holder.isCompleted) await holder.rollback()
  }
}

/** The PublicacionSuspendida events the app got. */
const suspensionEvents = (appId: number) =>
  db
    .from('app_events')
    .where('app_id', appId)
    .where('kind', 'PublicacionSuspendida')
    .select('payload')

const stateOf = async (listingId: number) =>
  (await db.from('listings').where('id', listingId).select('state').firstOrFail()).state as string

test.group('Listings: activation vs a suspension being committed', () => {
  test('activar while the agency’s suspension is uncommitted waits, then is refused', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const active = await createListing(ctx.app, ctx.fixture)
    const listing = await createListing(ctx.app, ctx.fixture, { Activa: false })

    await refusedDuringSuspension(
      assert,
      { table: 'agencies', id: ctx.fixture.agency.id, suspended: 1 },
      () => client.patch(`${ctx.href(listing.externalId)}/activar`).bearerToken(ctx.token),
      /agencia está suspendida/
    )
    assert.equal(await stateOf(listing.id), 'suspended')
    assert.equal(await stateOf(active.id), 'suspended')
  }).timeout(30_000)

  test('a PUT activating while the responsible person’s suspension is uncommitted waits, then is refused', async ({
    client,
    assert,
  }) => {
    const colab = uniqueEmail('colab')
    const ctx = await setup({ collaborators: [colab] })
    const operatorId = ctx.fixture.collaborators[0].id
    const theirs = await createListing(ctx.app, ctx.fixture, { OperadorResponsable: colab })
    const listing = await createListing(ctx.app, ctx.fixture, {
      Activa: false,
      OperadorResponsable: colab,
    })

    // PUT's Activa defaults to true: an edit that activates.
    await refusedDuringSuspension(
      assert,
      { table: 'operators', id: operatorId, suspended: 1 },
      () =>
        client
          .put(ctx.href(listing.externalId))
          .bearerToken(ctx.token)
          .json({ Descripcion: 'Activada durante una suspensión.' }),
      /operador responsable está suspendido/
    )
    assert.equal(await stateOf(listing.id), 'suspended')
    assert.equal(await stateOf(theirs.id), 'suspended')
  }).timeout(30_000)

  test('an edit of an active listing (no lock taken) racing the agency’s suspension waits, then is refused', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)

    // The edit keeps the listing active at its level: its first attempt reads without a
    // transaction (still active, agency not suspended) and blocks at its UPDATE on the row the
    // suspension holds. Once that commits the revision it read is gone, so the edit must not
    // write `active` back: it retries holding the row, sees the suspension and is refused.
    await refusedDuringSuspension(
      assert,
      { table: 'agencies', id: ctx.fixture.agency.id, suspended: 1 },
      () =>
        client
          .put(ctx.href(listing.externalId))
          .bearerToken(ctx.token)
          .json({ Descripcion: 'Editada durante una suspensión.' }),
      /agencia está suspendida/
    )
    assert.equal(await stateOf(listing.id), 'suspended')
    const row = await db.from('listings').where('id', listing.id).firstOrFail()
    assert.notEqual(row.description, 'Editada durante una suspensión.')
  }).timeout(30_000)

  test('a suspension that starts while an activation is uncommitted waits, then suspends that listing with its event', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture, { Activa: false })

    // Hold the activation half-way: after its suspension check, at the agency's activation
    // lock (the listings module's advisory lock, namespace 300).
    const holder = await db.transaction()
    let suspension: ReturnType<typeof tracked<boolean>> | undefined
    try {
      await holder.rawQuery('select pg_advisory_xact_lock(300, ?)', [ctx.fixture.agency.id])
      const activation = tracked(
        Promise.resolve(
          client.patch(`${ctx.href(listing.externalId)}/activar`).bearerToken(ctx.token)
        )
      )
      assert.equal(await advisoryWaits(), 1)

      suspension = tracked((await app.container.make(SetSuspension)).agency(ctx.adminMail, true))
      assert.isAtLeast(
        await until(lockWaits, (total) => total >= 2, 5_000),
        2,
        'the suspension must wait for the activation'
      )
      assert.isFalse(suspension.settled)
      await holder.commit()

      const response = await activation.promise
      response.assertStatus(200)
      assert.equal(response.body().EstadoActual, 'Activa')
      assert.isTrue(await suspension.promise)
    } finally {
      if (!holder.isCompleted) await holder.rollback()
      await suspension?.promise.catch(() => {})
    }
    assert.equal(await stateOf(listing.id), 'suspended')
    const events = await suspensionEvents(ctx.app.id)
    assert.lengthOf(events, 1)
    assert.equal(events[0].payload.Recurso.href, ctx.href(listing.externalId))
    assert.deepEqual(events[0].payload.Datos, { Causa: 'AgenciaSuspendida' })
  }).timeout(30_000)

  test('a smaller plan committed while an activation is in flight still ends within its capacity', async ({
    assert,
  }) => {
    const ctx = await setup()
    const plan = { capacity: 3, quotas: { high: 3, medium: 3, low: 3 } }
    await (await app.container.make(AgencyService)).setPlan(ctx.adminMail, plan)
    const first = await createListing(ctx.app, ctx.fixture)
    const second = await createListing(ctx.app, ctx.fixture)
    const third = await createListing(ctx.app, ctx.fixture, { Activa: false })

    // An activation half-way, as ApplyEdit leaves it: the agency's activation lock held, the
    // old plan read (3 places, 2 taken), the listing active — not committed yet.
    const activation = await db.transaction()
    let lowering: ReturnType<typeof tracked<unknown>> | undefined
    try {
      await activation.rawQuery('select pg_advisory_xact_lock(300, ?)', [ctx.fixture.agency.id])
      await activation.from('listings').where('id', third.id).update({ state: 'active' })

      lowering = tracked(
        (await app.container.make(AgencyService)).setPlan(ctx.adminMail, { ...plan, capacity: 2 })
      )
      assert.equal(await advisoryWaits(), 1, 'the plan change must count after the activation')
      assert.isFalse(lowering.settled)
      await activation.commit()
      await lowering.promise
    } finally {
      if (!activation.isCompleted) await activation.rollback()
      await lowering?.promise.catch(() => {})
    }
    const states = await Promise.all([first, second, third].map((listing) => stateOf(listing.id)))
    assert.equal(states.filter((state) => state === 'active').length, 2)
    // The most recently updated goes: the one just activated.
    assert.equal(await stateOf(third.id), 'suspended')
    const events = await suspensionEvents(ctx.app.id)
    assert.lengthOf(events, 1)
    assert.deepEqual(events[0].payload.Datos, { Causa: 'Plan' })
  }).timeout(30_000)

  test('activations of every kind racing the agency’s suspension: none left active, each answer one it could get alone', async ({
    client,
    assert,
  }) => {
    // Not held at a chosen point: the requests (sent GAP ms apart) and the suspension really run
    // together. The suspension starts after a delay that closes in, round by round, on the window
    // where it falls among the requests: later when it came before all of them, earlier when after.
    const SUSPENDED = /agencia está suspendida/
    const GAP = 10
    let [before, after] = [0, 60]
    for (let round = 0; round < 12; round++) {
      const delay = round === 0 ? 0 : Math.round((before + after) / 2) + (round % 3) - 1
      const ctx = await setup()
      const { answers, ids } = await activationBurst(client, ctx, `Ronda ${round}`)
      const suspension = new Promise((resolve) => setTimeout(resolve, delay)).then(async () =>
        (await app.container.make(SetSuspension)).agency(ctx.adminMail, true)
      )
      const [answered, suspended] = await Promise.all([answers(GAP, round), suspension])
      assert.isTrue(suspended)
      const accepted = answered.filter(({ status }) => status < 300).length
      if (accepted === 0) {
        before = Math.max(delay, 0)
        if (after <= before) after = 2 * before + 10
      } else if (accepted === answered.length) after = Math.max(delay, 1)

      const rows = await db
        .from('listings')
        .where('agency_id', ctx.fixture.agency.id)
        .select('id', 'external_id', 'state', 'description')
      const context = `round ${round} (after ${delay} ms): ${JSON.stringify(answered.map(({ name, status }) => [name, status]))}`
      assert.deepEqual(
        rows.filter((row) => row.state === 'active'),
        [],
        `no active listing of a suspended agency, ${context}`
      )
      const events = await suspensionEvents(ctx.app.id)
      const eventsOf = (externalId: string) =>
        events.filter((event) => event.payload.Recurso.href === ctx.href(externalId))
      for (const { name, status, body } of answered) {
        const row = rows.find((candidate) => candidate.external_id === ids[name])
        if (status === 200 || status === 201) {
          // Alone before the suspension: active when answered, then suspended by it, with its event.
          assert.equal(status, name === 'post' ? 201 : 200, `${name}, ${context}`)
          assert.equal(body.EstadoActual, 'Activa', `${name}, ${context}`)
          assert.equal(row.state, 'suspended', `${name}, ${context}`)
          assert.lengthOf(eventsOf(ids[name]), 1, `${name}'s suspension event, ${context}`)
          continue
        }
        // Alone after it: refused for the suspended agency, nothing written.
        assert.equal(status, 409, `${name}: ${JSON.stringify(body)}, ${context}`)
        assert.match(body.Errors._[0], SUSPENDED, `${name}, ${context}`)
        if (name === 'post') {
          assert.isUndefined(row, `a refused creation leaves no listing, ${context}`)
        } else if (name === 'edit') {
          assert.notEqual(row.description, `Ronda ${round}`, context)
          assert.lengthOf(eventsOf(ids[name]), 1, `the active listing's event, ${context}`)
        } else {
          assert.equal(row.state, 'suspended', `${name}, ${context}`)
          assert.lengthOf(eventsOf(ids[name]), 0, `${name} was never active, ${context}`)
        }
      }
    }
  }).timeout(90_000)
})

/**
 * One listing activated by each way there is (activar, PUT, PATCH, a creation) and an
 * edit of an active listing keeping its level (the path without a lock), ready to send
 * together: `answers()` sends them and answers each one's status and body; `ids` names
 * the listing of each.
 */
async function activationBurst(
  client: ApiClient,
  ctx: Awaited<ReturnType<typeof setup>>,
  description: string
) {
  const active = await createListing(ctx.app, ctx.fixture)
  const [viaActivar, viaPut, viaPatch] = await Promise.all(
    [0, 1, 2].map(() => createListing(ctx.app, ctx.fixture, { Activa: false }))
  )
  const created = listingBody()
  const send: Record<string, () => ApiRequest> = {
    activar: () => client.patch(`${ctx.href(viaActivar.externalId)}/activar`),
    put: () => client.put(ctx.href(viaPut.externalId)).json({ Color: 'Rojo' }),
    patch: () => client.patch(ctx.href(viaPatch.externalId)).json({ Activa: true }),
    edit: () => client.put(ctx.href(active.externalId)).json({ Descripcion: description }),
    post: () => client.post(ctx.base).json(created),
  }
  const ids: Record<string, string> = {
    activar: viaActivar.externalId,
    put: viaPut.externalId,
    patch: viaPatch.externalId,
    edit: active.externalId,
    post: created.ExternalId,
  }
  // One after another `gap` ms apart, starting with the `first`th kind: a suspension can fall between them.
  const answers = (gap = 0, first = 0) => {
    const kinds = Object.entries(send)
    const order = [...kinds.slice(first % kinds.length), ...kinds.slice(0, first % kinds.length)]
    return Promise.all(
      order.map(async ([name, request], index) => {
        await new Promise((resolve) => setTimeout(resolve, index * gap))
        const response = await request().bearerToken(ctx.token)
        return { name, status: response.status(), body: response.body() }
      })
    )
  }
  return { answers, ids }
}
