import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import Delivery from '#core/outbound/models/delivery'
import { DeliveryService } from '#core/outbound/deliveries'
import AppEvents from '#apps/services/app_events'
import AppWebhook from '#apps/models/app_webhook'
import { createCaller } from '#tests/helpers/apps'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { until } from '#tests/helpers/until'

/** An event emitted as a module emits it (the container's AppEvents, built on the delivery service). */
const emitEvent = async (...args: Parameters<AppEvents['emit']>) =>
  (await app.container.make(AppEvents)).emit(...args)

const URL_TOPIC = '/v3/appnotificaciones/invitaciones'
const SECRET = 'app-events-secret-0123'

function settled(id: string, timeoutMs = 15_000) {
  return until(
    () => Delivery.findOrFail(id),
    (delivery) => ['delivered', 'dead', 'disabled'].includes(delivery.status),
    timeoutMs
  )
}

function event() {
  return {
    Tipo: 'InvitacionAceptada',
    Momento: new Date().toISOString(),
    Agencia: {
      href: '/v3/agencias/admin@example.com',
      title: 'Agencia',
      AdminMail: 'admin@example.com',
    },
  }
}

test.group('App events: apps.webhook deliveries through a real worker', (group) => {
  let receiver: Receiver
  const initial = { allow: settings.outboundAllowPrivate, schedule: settings.deliveryRetrySchedule }

  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['apps.webhook'] })
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => {
    receiver.reset()
    settings.outboundAllowPrivate = true
    settings.deliveryRetrySchedule = [0.1]
    return () => {
      settings.outboundAllowPrivate = initial.allow
      settings.deliveryRetrySchedule = initial.schedule
    }
  })

  test('a subscribed app receives the event signed, with its custom headers', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Events app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({
        Callback: receiver.url('/events'),
        Secret: SECRET,
        HeaderCustom01: { Name: 'Authorization', Value: 'Bearer receiver-token' },
        HeaderCustom03: { Name: 'X-Tenant', Value: 'acme' },
      })
      .then((r) => r.assertStatus(200))

    const payload = event()
    const delivery = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', payload, trx)
    )
    assert.isNotNull(delivery)
    const [received] = await receiver.waitFor(1)

    assert.equal(received.method, 'POST')
    assert.equal(received.path, '/events')
    assert.equal(received.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(received.headers.authorization, 'Bearer receiver-token')
    assert.equal(received.headers['x-tenant'], 'acme')
    assert.equal(received.headers['webhook-id'], delivery!.messageId)
    const verified = new Webhook(SECRET, { format: 'raw' }).verify(
      received.rawBody.toString(),
      received.headers as Record<string, string>
    )
    // The one envelope of every topic (docs/design.md §19), Id = webhook-id.
    assert.deepEqual(verified, {
      Id: delivery!.messageId,
      Topico: 'invitaciones',
      Recurso: null,
      Datos: {},
      ...payload,
    })

    const done = await settled(delivery!.id)
    assert.equal(done.status, 'delivered')
    assert.equal(done.channel, 'app.invitaciones')
    const [logged] = await (
      await app.container.make(DeliveryService)
    ).list('app_webhook', done.ownerId)
    assert.equal(logged.attempts[0].statusCode, 200)
  })

  test('no subscription, or an inactive one: emit queues nothing', async ({ client, assert }) => {
    const { app: caller, token } = await createCaller('Quiet app')
    const none = await db.transaction((trx) => emitEvent(caller.id, 'invitaciones', event(), trx))
    assert.isNull(none)
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/off'), Activo: false })
      .then((r) => r.assertStatus(200))
    const inactive = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', event(), trx)
    )
    assert.isNull(inactive)
    const count = await db.from('deliveries').where('app_id', caller.id).count('* as n')
    assert.equal(Number(count[0].n), 0)
  })

  test('an event emitted in a rolled-back transaction is never delivered', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Rollback app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/rolled') })
    const trx = await db.transaction()
    const delivery = await emitEvent(caller.id, 'invitaciones', event(), trx)
    await trx.rollback()
    assert.isNull(await Delivery.find(delivery!.id))
    // A committed event sent afterwards arrives; the rolled-back one never did.
    const later = await db.transaction((t) =>
      emitEvent(caller.id, 'invitaciones', { Tipo: 'after' }, t)
    )
    await settled(later!.id)
    assert.deepEqual(
      receiver.requests.map((request) => request.json().Tipo),
      ['after']
    )
  })

  test('a 410 answer switches the subscription off', async ({ client, assert }) => {
    const { app: caller, token } = await createCaller('Gone app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/gone') })
    receiver.setDefault({ status: 410 })
    const delivery = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', event(), trx)
    )
    const done = await settled(delivery!.id)
    assert.equal(done.status, 'disabled')
    // The job switches the subscription off once the attempt is recorded: moments after the status.
    const subscription = await until(
      () => AppWebhook.query().where('app_id', caller.id).firstOrFail(),
      (row) => !row.active,
      5_000
    )
    assert.isFalse(subscription.active)
    const read = await client.get(URL_TOPIC).bearerToken(token)
    assert.isFalse(read.body().Activo)
  })

  test('switching the subscription off stops the retries of a queued event', async ({
    client,
    assert,
  }) => {
    settings.deliveryRetrySchedule = [0.5, 0.5]
    const { app: caller, token } = await createCaller('Switch-off app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/flaky') })
    receiver.setDefault({ status: 503 })
    const delivery = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', event(), trx)
    )
    await receiver.waitFor(1)
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/flaky'), Activo: false })
      .then((r) => r.assertStatus(200))
    const done = await settled(delivery!.id)
    assert.equal(done.status, 'disabled')
    assert.equal(done.lastError, 'subscription inactive')
    assert.lengthOf(receiver.requests, 1)
  })

  test('redirects are not followed: a 3xx counts as a failed try', async ({ client, assert }) => {
    const { app: caller, token } = await createCaller('Redirect app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/moved') })
    receiver.route('/moved', { status: 302, headers: { location: receiver.url('/elsewhere') } })
    const delivery = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', event(), trx)
    )
    const done = await settled(delivery!.id)
    assert.equal(done.status, 'dead')
    assert.deepEqual(
      receiver.requests.map((request) => request.path),
      ['/moved', '/moved']
    )
    const [logged] = await (
      await app.container.make(DeliveryService)
    ).list('app_webhook', done.ownerId)
    assert.deepEqual(
      logged.attempts.map((attempt) => attempt.statusCode),
      [302, 302]
    )
  })

  test('a subscription without Secret still carries webhook-id and webhook-timestamp, unsigned', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller('Unsigned app')
    await client
      .put(URL_TOPIC)
      .bearerToken(token)
      .json({ Callback: receiver.url('/unsigned') })
    const delivery = await db.transaction((trx) =>
      emitEvent(caller.id, 'invitaciones', event(), trx)
    )
    const [received] = await receiver.waitFor(1)
    assert.equal(received.headers['webhook-id'], delivery!.messageId)
    assert.match(String(received.headers['webhook-timestamp']), /^\d+$/)
    assert.isUndefined(received.headers['webhook-signature'])
  })
})
