/*
 * GET /v3/eventos (paging, 30 days, isolation, filters) and the test event
 * POST /v3/appnotificaciones/{topic}/prueba against a real receiver
 * (docs/design.md §14).
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import AppEvents from '#apps/services/app_events'
import { createCaller } from '#tests/helpers/apps'
import { outboundPrivate, startReceiver, type Receiver } from '#tests/helpers/receiver'

/** An event emitted as a module emits it (the container's AppEvents, built on the delivery service). */
const emitEvent = async (...args: Parameters<AppEvents['emit']>) =>
  (await app.container.make(AppEvents)).emit(...args)

const SECRET = 'whsec_' + Buffer.from('clave-de-historia-de-32-bytes-12').toString('base64')

/** `count` events of the app, each in its own transaction (distinct times) unless `together`. */
async function emitMany(appId: number, count: number, together = false) {
  const emit = (trx: any, index: number) =>
    emitEvent(
      appId,
      index % 2 === 0 ? 'publicaciones' : 'consultas',
      { Tipo: index % 2 === 0 ? 'FotoLista' : 'ConsultaRecibida', Datos: { N: index } },
      trx
    )
  if (together) {
    await db.transaction(async (trx) => {
      for (let index = 0; index < count; index++) await emit(trx, index)
    })
    return
  }
  for (let index = 0; index < count; index++) await db.transaction((trx) => emit(trx, index))
}

async function readAll(client: any, token: string, first = '/v3/eventos') {
  const pages: any[] = []
  let href: string | undefined = first
  while (href) {
    const response: any = await client.get(href).bearerToken(token)
    response.assertStatus(200)
    pages.push(response.body())
    href = response.body()._links.next?.href
  }
  return pages
}

test.group('Event history: GET /v3/eventos', () => {
  test('more than 100 events: pages of 100, oldest first, no duplicates, next until the end', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('History app')
    // One transaction: every event has the same tx, so the cursor's tie-break on Id is what pages.
    await emitMany(caller.id, 150, true)
    await emitMany(caller.id, 60)
    const pages = await readAll(client, token)
    assert.deepEqual(
      pages.map((page) => page._entries.length),
      [100, 100, 10, 0]
    )
    const ids = pages.flatMap((page) => page._entries.map((entry: any) => entry.Id))
    assert.lengthOf(new Set(ids), 210)
    const stored = await db
      .from('app_events')
      .where('app_id', caller.id)
      .orderBy('tx')
      .orderBy('id')
      .select('id')
    assert.deepEqual(
      ids,
      stored.map((row) => row.id)
    )
    // The last page has no next; its self is where to resume later.
    const last = pages.at(-1)
    assert.notProperty(last._links, 'next')
    await emitMany(caller.id, 1)
    const resumed = await client.get(last._links.self.href).bearerToken(token)
    assert.lengthOf(resumed.body()._entries, 1)
    assert.notInclude(ids, resumed.body()._entries[0].Id)
    // Every entry has the full shape.
    const [entry] = pages[0]._entries
    assert.sameMembers(Object.keys(entry), [
      'Id',
      'Tipo',
      'Momento',
      'Topico',
      'Agencia',
      'Recurso',
      'Datos',
    ])
  })

  test('an event whose transaction commits late is listed after the ones before it, never skipped', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Late commit app')
    const slow = await db.transaction()
    await emitEvent(caller.id, 'consultas', { Tipo: 'ConsultaRecibida' }, slow)
    await emitMany(caller.id, 1)
    // The later event is committed, but an earlier transaction still runs: nothing is listed yet.
    const [held] = await readAll(client, token)
    assert.lengthOf(held._entries, 0)
    await slow.commit()
    const [page] = await readAll(client, token)
    assert.deepEqual(
      page._entries.map((entry: any) => entry.Tipo),
      ['ConsultaRecibida', 'FotoLista']
    )
  })

  test('30 days: older events are not listed, and the prune job deletes them', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Window app')
    await emitMany(caller.id, 3)
    const rows = await db.from('app_events').where('app_id', caller.id).orderBy('created_at')
    await db
      .from('app_events')
      .where('id', rows[0].id)
      .update({ created_at: db.raw("now() - interval '31 days'") })
    await db
      .from('app_events')
      .where('id', rows[1].id)
      .update({ created_at: db.raw("now() - interval '29 days'") })
    const [page] = await readAll(client, token)
    assert.deepEqual(
      page._entries.map((entry: any) => entry.Id),
      [rows[1].id, rows[2].id]
    )
    const { default: PruneEventsJob } = await import('#apps/jobs/prune_events_job')
    await (await app.container.make(PruneEventsJob)).handle()
    const left = await db.from('app_events').where('app_id', caller.id).select('id')
    assert.sameMembers(
      left.map((row) => row.id),
      [rows[1].id, rows[2].id]
    )
  })

  test("isolation: an app sees only its own events, even with another app's cursor", async ({
    client,
    assert,
  }) => {
    const one = await createCaller('App one')
    const two = await createCaller('App two')
    await emitMany(one.app.id, 3)
    await emitMany(two.app.id, 2)
    const [pageOne] = await readAll(client, one.token)
    const [pageTwo] = await readAll(client, two.token)
    assert.lengthOf(pageOne._entries, 3)
    assert.lengthOf(pageTwo._entries, 2)
    const mine = await db.from('app_events').where('app_id', two.app.id).select('id')
    assert.sameMembers(
      pageTwo._entries.map((entry: any) => entry.Id),
      mine.map((row) => row.id)
    )
    // Following app one's first cursor as app two yields app two's events only.
    const first = await client.get('/v3/eventos').bearerToken(one.token)
    const cursor = new URL(first.body()._links.next.href, 'http://x').searchParams.get('desde')
    const foreign = await client.get(`/v3/eventos?desde=${cursor}`).bearerToken(two.token)
    foreign.assertStatus(200)
    for (const entry of foreign.body()._entries)
      assert.include(
        mine.map((row) => row.id),
        entry.Id
      )
  })

  test('topico filters; a bad topico or cursor is 400', async ({ client, assert }) => {
    const { app: caller, token } = await createCaller('Filter app')
    await emitMany(caller.id, 4)
    const [page] = await readAll(client, token, '/v3/eventos?topico=consultas')
    assert.lengthOf(page._entries, 2)
    assert.isTrue(page._entries.every((entry: any) => entry.Topico === 'consultas'))
    assert.include(page._links.next.href, 'topico=consultas')
    for (const query of [
      'topico=novedades',
      'desde=no-es-un-cursor',
      `desde=${Buffer.from('1.x').toString('base64url')}`,
      'desde=%2F%2F',
    ]) {
      const response = await client.get(`/v3/eventos?${query}`).bearerToken(token)
      response.assertStatus(400)
    }
  })

  test('requires a token', async ({ client }) => {
    const response = await client.get('/v3/eventos')
    response.assertStatus(401)
  })
})

test.group('Test event: POST /v3/appnotificaciones/{topic}/prueba', (group) => {
  let receiver: Receiver
  group.setup(async () => {
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => receiver.reset())
  outboundPrivate(group, true)

  async function subscribed(client: any, callback: string) {
    const { app: caller, token } = await createCaller('Test event app')
    await client
      .put('/v3/appnotificaciones/publicaciones')
      .bearerToken(token)
      .json({ Callback: callback, Secret: SECRET })
      .then((r: any) => r.assertStatus(200))
    return { caller, token }
  }

  test('receiver answers 200: Estado 200, a signed Prueba event, not in the history', async ({
    client,
    assert,
  }) => {
    const { token } = await subscribed(client, receiver.url('/test'))
    const response = await client
      .post('/v3/appnotificaciones/publicaciones/prueba')
      .bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.body().Estado, 200)
    assert.isNull(response.body().Error)
    assert.isAtLeast(response.body().DuracionMs, 0)
    const [request] = await receiver.waitFor(1)
    const event: any = new Webhook(SECRET).verify(
      request.body,
      request.headers as Record<string, string>
    )
    assert.equal(event.Tipo, 'Prueba')
    assert.equal(event.Topico, 'publicaciones')
    assert.equal(event.Id, request.headers['webhook-id'])
    const history = await client.get('/v3/eventos').bearerToken(token)
    assert.lengthOf(history.body()._entries, 0)
  })

  test('receiver answers 500: Estado 500 and the error, no retry', async ({ client, assert }) => {
    const { token } = await subscribed(client, receiver.url('/broken'))
    receiver.setDefault({ status: 500 })
    const response = await client
      .post('/v3/appnotificaciones/publicaciones/prueba')
      .bearerToken(token)
    response.assertStatus(200)
    assert.equal(response.body().Estado, 500)
    assert.equal(response.body().Error, 'HTTP 500')
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.lengthOf(receiver.requests, 1)
  })

  test('nothing listening: Estado null and the connection error', async ({ client, assert }) => {
    const closed = await startReceiver()
    const port = closed.port
    await closed.close()
    const { token } = await subscribed(client, `http://127.0.0.1:${port}/nobody`)
    const response = await client
      .post('/v3/appnotificaciones/publicaciones/prueba')
      .bearerToken(token)
    response.assertStatus(200)
    assert.isNull(response.body().Estado)
    assert.match(response.body().Error, /ECONNREFUSED/)
  })

  test('no subscription to the topic: 404; unknown topic: 404', async ({ client }) => {
    const { token } = await subscribed(client, receiver.url('/x'))
    await client
      .post('/v3/appnotificaciones/consultas/prueba')
      .bearerToken(token)
      .then((r: any) => r.assertStatus(404))
    await client
      .post('/v3/appnotificaciones/novedades/prueba')
      .bearerToken(token)
      .then((r: any) => r.assertStatus(404))
  })
})
