/*
 * App events of docs/design.md §14, each caused by the real action, through
 * real workers and a real receiver: signed (standardwebhooks), retried after a
 * 500, and recorded in GET /v3/eventos under the same Id as the webhook-id.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import sharp from 'sharp'
import { Webhook } from 'standardwebhooks'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { Delivery } from '#core/outbound/deliveries'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency } from '#tests/helpers/agencies'
import { listingBody } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { startReceiver, type Receiver, type ReceivedRequest } from '#tests/helpers/receiver'
import db from '@adonisjs/lucid/services/db'
import ModuleRegistry from '#core/modules'
import AppEvents from '#apps/services/app_events'
import { captureLogs } from '#tests/helpers/logs'
import {
  dealerWorld,
  settledDeliveries,
  sidOf,
  startLeadWorkers,
  until,
  postInquiry,
} from '#tests/helpers/leads'

/** An event emitted as a module emits it (the container's AppEvents, built on the delivery service). */
const emitEvent = async (...args: Parameters<AppEvents['emit']>) =>
  (await app.container.make(AppEvents)).emit(...args)

const SECRET = 'whsec_' + Buffer.from('clave-de-eventos-de-32-bytes-123').toString('base64')

async function subscribe(client: any, token: string, topic: string, callback: string) {
  const response = await client
    .put(`/v3/appnotificaciones/${topic}`)
    .bearerToken(token)
    .json({ Callback: callback, Secret: SECRET })
  response.assertStatus(200)
}

/** The event a request carries, after checking its signature (throws when it does not verify). */
function verified(request: ReceivedRequest): any {
  return new Webhook(SECRET).verify(request.body, request.headers as Record<string, string>)
}

/**
 * Answers 500 to the first try of every webhook-id, 200 to the next: every
 * event is retried once before it is delivered.
 */
function failFirstTry(receiver: Receiver, path: string) {
  const seen = new Set<string>()
  receiver.route(path, (request) => {
    const id = String(request.headers['webhook-id'])
    if (seen.has(id)) return { status: 200 }
    seen.add(id)
    return { status: 500 }
  })
}

/** The distinct events received on `path` (second tries included in `tries`). */
async function eventsOn(receiver: Receiver, path: string, count: number, tries = 2) {
  const requests = await until(
    async () => receiver.requests.filter((request) => request.path === path),
    (list) => list.length >= count * tries,
    20_000
  )
  const byId = new Map<string, ReceivedRequest[]>()
  for (const request of requests) {
    const id = String(request.headers['webhook-id'])
    byId.set(id, [...(byId.get(id) ?? []), request])
  }
  return byId
}

async function history(client: any, token: string, query = '') {
  const response = await client.get(`/v3/eventos${query}`).bearerToken(token)
  response.assertStatus(200)
  return response.body() as { _links: Record<string, { href: string }>; _entries: any[] }
}

async function assertDeliveredAfterRetry(assert: any, messageId: string) {
  const delivery = await until(
    () => Delivery.query().where('message_id', messageId).preload('attempts').firstOrFail(),
    (found) => found.status === 'delivered',
    20_000
  )
  assert.equal(delivery.status, 'delivered')
  assert.deepEqual(delivery.attempts.map((attempt) => attempt.statusCode).sort(), [200, 500])
}

/** A dealer whose lead webhook points at a closed port: every lead delivery of it ends dead. */
async function worldWithDeadLeadWebhook(client: any) {
  const closed = await startReceiver()
  const port = closed.port
  await closed.close()
  const world = await dealerWorld()
  await client
    .put(`/v3/notificaciones/${world.adminMail}`)
    .bearerToken(world.token)
    .json({
      PublicacionConsultadaWebHook: { Callback: `http://127.0.0.1:${port}/down`, Activo: true },
    })
    .then((r: any) => r.assertStatus(200))
  return world
}

test.group('App events: each kind caused by the real action', (group) => {
  let hooks: Receiver
  let sources: Receiver
  const initial = { allow: settings.outboundAllowPrivate, schedule: settings.deliveryRetrySchedule }

  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['apps.webhook', 'photos.fetch'] })
    await startLeadWorkers()
    hooks = await startReceiver()
    sources = await startReceiver()
    return async () => {
      await hooks.close()
      await sources.close()
    }
  })
  group.each.setup(() => {
    hooks.reset()
    sources.reset()
    settings.outboundAllowPrivate = true
    settings.deliveryRetrySchedule = [0.2, 0.2]
    return () => {
      settings.outboundAllowPrivate = initial.allow
      settings.deliveryRetrySchedule = initial.schedule
    }
  })

  test('FotoLista and FotoRechazada when the photos settle', async ({ client, assert }) => {
    await seedCatalog()
    const { app: caller, token } = await createCaller('Photo events app')
    const fixture = await createAgency(caller)
    const adminMail = fixture.agency.adminMail
    await subscribe(client, token, 'publicaciones', hooks.url('/pub'))
    failFirstTry(hooks, '/pub')
    sources.route('/ok.jpg', {
      headers: { 'content-type': 'image/jpeg' },
      body: await sharp({ create: { width: 800, height: 600, channels: 3, background: '#a33' } })
        .jpeg()
        .toBuffer(),
    })
    sources.route('/small.jpg', {
      headers: { 'content-type': 'image/jpeg' },
      body: await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a3' } })
        .jpeg()
        .toBuffer(),
    })
    const body = listingBody({
      VersionYear: new Date().getFullYear() - 2,
      Kilometraje: 30000,
      Fotos: [sources.url('/ok.jpg'), sources.url('/small.jpg')],
    })
    const created = await client
      .post(`/v3/publicaciones/${adminMail}`)
      .bearerToken(token)
      .json(body)
    created.assertStatus(201)

    const received = await eventsOn(hooks, '/pub', 2)
    assert.equal(received.size, 2)
    const events = [...received.values()].map((tries) => {
      // Both tries carry the same signed body under the same webhook-id.
      assert.equal(tries[0].body, tries[1].body)
      return verified(tries[1])
    })
    const ready = events.find((event) => event.Tipo === 'FotoLista')
    const rejected = events.find((event) => event.Tipo === 'FotoRechazada')
    const listingHref = `/v3/publicaciones/${adminMail}/${body.ExternalId}`
    assert.deepInclude(ready, {
      Topico: 'publicaciones',
      Agencia: { AdminMail: adminMail, href: `/v3/agencias/${adminMail}` },
    })
    assert.equal(ready.Recurso.href, listingHref)
    assert.equal(ready.Datos.Url, sources.url('/ok.jpg'))
    assert.equal(rejected.Recurso.href, listingHref)
    assert.equal(rejected.Datos.Url, sources.url('/small.jpg'))
    assert.match(rejected.Datos.Motivo, /640×360/)
    for (const [id, tries] of received) {
      assert.equal(verified(tries[0]).Id, id, 'Id is the webhook-id')
      await assertDeliveredAfterRetry(assert, id)
    }

    const { _entries: entries } = await history(client, token)
    assert.sameDeepMembers(entries, events)
  })

  test('ConsultaRecibida to the app that publishes the listing', async ({ client, assert }) => {
    const world = await dealerWorld()
    await subscribe(client, world.token, 'consultas', hooks.url('/consultas'))
    failFirstTry(hooks, '/consultas')
    const created = await postInquiry(client, world)
    const location = new URL(created.header('location')!).pathname

    const received = await eventsOn(hooks, '/consultas', 1)
    const [[id, tries]] = [...received]
    const event = verified(tries[1])
    assert.equal(event.Id, id)
    assert.equal(event.Tipo, 'ConsultaRecibida')
    assert.equal(event.Topico, 'consultas')
    assert.equal(event.Recurso.href, location)
    assert.equal(event.Agencia.AdminMail, world.adminMail)
    await assertDeliveredAfterRetry(assert, id)
    const { _entries: entries } = await history(client, world.token, '?topico=consultas')
    assert.deepEqual(entries, [event])
  })

  test('EntregaFallida when a lead delivery of the app goes dead', async ({ client, assert }) => {
    const world = await worldWithDeadLeadWebhook(client)
    await subscribe(client, world.token, 'entregas', hooks.url('/entregas'))
    failFirstTry(hooks, '/entregas')
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const [lead] = await settledDeliveries(sid, 1, 20_000)
    assert.equal(lead.status, 'dead')

    const received = await eventsOn(hooks, '/entregas', 1)
    const [[id, tries]] = [...received]
    const event = verified(tries[1])
    assert.equal(event.Id, id)
    assert.equal(event.Tipo, 'EntregaFallida')
    assert.equal(event.Datos.Canal, 'PublicacionConsultadaWebHook')
    assert.match(event.Datos.UltimoError, /ECONNREFUSED/)
    assert.equal(event.Recurso.href, `${new URL(created.header('location')!).pathname}/entregas`)
    await assertDeliveredAfterRetry(assert, id)
    const { _entries: entries } = await history(client, world.token, '?topico=entregas')
    assert.deepEqual(entries, [event])
  })

  test('a deliveryDead hook that throws is logged; the delivery stays dead and the other hooks still run', async ({
    client,
    assert,
  }) => {
    const world = await worldWithDeadLeadWebhook(client)
    await subscribe(client, world.token, 'entregas', hooks.url('/entregas-fallo'))

    // A module of this test, run before leads' hook: it writes an event of its own, then throws.
    const hookCalls: string[] = []
    const registry = await app.container.make(ModuleRegistry)
    const removeModule = registry.contribute(
      'failing-hook',
      {
        deliveryDead: async () => ({
          onDeliveryDead: async (delivery, trx) => {
            hookCalls.push(delivery.id)
            await emitEvent(
              world.caller.id,
              'entregas',
              { Tipo: 'EventoDelGanchoRoto', Datos: {} },
              trx
            )
            throw new Error('gancho roto')
          },
        }),
      },
      { before: 'leads' }
    )
    const logs = captureLogs('error')
    let lead: Delivery
    try {
      const created = await postInquiry(client, world)
      ;[lead] = await settledDeliveries(sidOf(created.header('location')!), 1, 20_000)
    } finally {
      removeModule()
      logs.restore()
    }

    // The dead mark committed although the hook's savepoint rolled back.
    assert.equal(lead.status, 'dead')
    assert.deepEqual(hookCalls, [lead.id])
    const logged = logs.records.filter((record) => record.msg === 'a deliveryDead hook failed')
    assert.lengthOf(logged, 1)
    assert.equal(logged[0].deliveryId, lead.id)
    assert.equal(logged[0].err.message, 'gancho roto')

    const [kept] = await db
      .from('app_events')
      .where('app_id', world.caller.id)
      .where('kind', 'EventoDelGanchoRoto')
      .count('* as total')
    assert.equal(Number(kept.total), 0, 'the failed hook’s write rolls back with its savepoint')

    // Leads' hook ran after it: EntregaFallida delivered and in the history; nothing of the failed hook.
    const received = await eventsOn(hooks, '/entregas-fallo', 1, 1)
    const [[id, tries]] = [...received]
    const event = verified(tries[0])
    assert.equal(event.Tipo, 'EntregaFallida')
    assert.equal(event.Id, id)
    const { _entries: entries } = await history(client, world.token, '?topico=entregas')
    assert.deepEqual(entries, [event])
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.lengthOf(
      hooks.requests.filter((request) => request.path === '/entregas-fallo'),
      1,
      'no delivery of the failed hook’s event'
    )
  })

  test('an app not subscribed gets no delivery, but the event is in its history', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await postInquiry(client, world)
    const { _entries: entries } = await history(client, world.token)
    assert.lengthOf(entries, 1)
    assert.equal(entries[0].Tipo, 'ConsultaRecibida')
    const queued = await Delivery.query().where('message_id', entries[0].Id)
    assert.lengthOf(queued, 0)
  })

  test('ConsultaRecibida reaches exactly the apps that see the inquiry', async ({
    client,
    assert,
  }) => {
    await seedCatalog()
    const world = await dealerWorld({ receivesOtherLeads: true })
    const other = await createCaller('Other leads app')
    const blind = await createCaller('Blind app')
    await grantAgency(other.app, world.adminMail, true)
    await grantAgency(blind.app, world.adminMail, false)
    const inquiriesSeenBy = async (appId: number) =>
      (await db.from('app_events').where('app_id', appId).select('payload')).map(
        (row) => row.payload.Recurso.href as string
      )

    // A listing inquiry: only the publishing app sees it.
    const onListing = await postInquiry(client, world)
    const listingInquiry = new URL(onListing.header('location')!).pathname
    // A catalogue inquiry: every app receiving the agency's other leads sees it.
    const version = await db.from('versions').select('id').firstOrFail()
    const onCatalogue = await postInquiry(client, world, {
      VersionId: version.id,
      OrigenLead: 'App',
      Interesado: { Telefono: '011 4444-5555' },
    })
    const catalogueInquiry = new URL(onCatalogue.header('location')!).pathname

    assert.sameMembers(await inquiriesSeenBy(world.caller.id), [listingInquiry, catalogueInquiry])
    assert.sameMembers(await inquiriesSeenBy(other.app.id), [catalogueInquiry])
    assert.sameMembers(await inquiriesSeenBy(blind.app.id), [])
  })
})
