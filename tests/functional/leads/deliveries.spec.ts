import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { Webhook } from 'standardwebhooks'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import {
  configureNotifications,
  dealerWorld,
  deliveriesOf,
  postInquiry,
  settledDeliveries,
  sidOf,
  startLeadWorkers,
  until,
} from '#tests/helpers/leads'

const SECRET = 'whsec_' + Buffer.from('clave-de-prueba-de-32-bytes-1234').toString('base64')

async function withWebhook(receiver: Receiver, path = '/hook', extra: object = {}) {
  const world = await dealerWorld()
  return {
    world,
    config: {
      PublicacionConsultadaWebHook: { Callback: receiver.url(path), Secret: SECRET, Activo: true },
      ...extra,
    },
  }
}

test.group('Lead deliveries: no lead is lost', (group) => {
  let receiver: Receiver
  const initialSchedule = settings.deliveryRetrySchedule

  group.setup(async () => {
    await startLeadWorkers()
    // Short retry delays for the tests (the service's own schedule is minutes to hours).
    settings.deliveryRetrySchedule = [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2]
    receiver = await startReceiver()
    return async () => {
      settings.deliveryRetrySchedule = initialSchedule
      await receiver.close()
    }
  })
  group.each.setup(() => receiver.reset())

  test('500, 500, then 200: delivered on the third attempt, every attempt logged', async ({
    client,
    assert,
  }) => {
    const { world, config } = await withWebhook(receiver)
    await configureNotifications(client, world, config)
    receiver.script({ status: 500 }, { status: 500 }, { status: 200 })
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const [delivery] = await settledDeliveries(sid, 1)
    assert.equal(delivery.status, 'delivered')

    const requests = await receiver.waitFor(3)
    assert.lengthOf(
      new Set(requests.map((r) => r.headers['webhook-id'])),
      1,
      'the same webhook-id on every try'
    )
    assert.equal(requests[0].body, requests[2].body)

    const log = await client
      .get(`/v3/consultas/${world.adminMail}/${sid}/entregas`)
      .bearerToken(world.token)
    log.assertStatus(200)
    const [entry] = log.body()._entries
    assert.equal(entry.Canal, 'PublicacionConsultadaWebHook')
    assert.equal(entry.Destino, receiver.url('/hook'))
    assert.equal(entry.Estado, 'Entregada')
    assert.equal(entry.WebhookId, `msg_${sid}`)
    assert.deepEqual(
      entry.Intentos.map((a: any) => a.CodigoRespuesta),
      [500, 500, 200]
    )
    assert.deepEqual(
      entry.Intentos.map((a: any) => a.Error),
      ['HTTP 500', 'HTTP 500', null]
    )
    assert.isTrue(entry.Intentos.every((a: any) => Number.isInteger(a.DuracionMs)))
    assert.deepEqual(log.body()._links.consulta, {
      href: `/v3/consultas/${world.adminMail}/${sid}`,
    })
  })

  test('receiver down, then up again: delivered once it answers', async ({ client, assert }) => {
    const down = await startReceiver()
    const port = down.port
    await down.close()
    const world = await dealerWorld()
    const config = {
      PublicacionConsultadaWebHook: { Callback: `http://127.0.0.1:${port}/late`, Activo: true },
    }
    await configureNotifications(client, world, config)
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const [failing] = await until(
      () => deliveriesOf(sid),
      (list) => list[0]?.attempts.length >= 1
    )
    assert.match(failing.attempts[0].error!, /ECONNREFUSED/)
    assert.isNull(failing.attempts[0].statusCode)

    const up = await startReceiver({ port })
    try {
      const [delivery] = await settledDeliveries(sid, 1)
      assert.equal(delivery.status, 'delivered')
      const [request] = await up.waitFor(1)
      assert.equal(request.headers['webhook-id'], `msg_${sid}`)
      assert.isAtLeast(delivery.attempts.length, 2)
    } finally {
      await up.close()
    }
  })

  test('410 Gone: the channel is deactivated and nothing more is tried', async ({
    client,
    assert,
  }) => {
    const { world, config } = await withWebhook(receiver, '/gone')
    await configureNotifications(client, world, config)
    receiver.route('/gone', { status: 410 })
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const [delivery] = await settledDeliveries(sid, 1)
    assert.equal(delivery.status, 'disabled')
    assert.isNull(delivery.nextAttemptAt)
    assert.lengthOf(delivery.attempts, 1)
    const openJobs = () =>
      db.rawQuery(
        `select count(*)::int as n from pgboss.job where name = 'leads.webhook' and data->>'deliveryId' = ? and state in ('created', 'retry', 'active')`,
        [delivery.id]
      )
    // The job that got the 410 completes; no other is queued.
    const open = await until(openJobs, (result) => result.rows[0].n === 0)
    assert.equal(open.rows[0].n, 0)

    const stored = await client
      .get(`/v3/notificaciones/${world.adminMail}`)
      .bearerToken(world.token)
    assert.isFalse(stored.body().PublicacionConsultadaWebHook.Activo)
    const log = await client
      .get(`/v3/consultas/${world.adminMail}/${sid}/entregas`)
      .bearerToken(world.token)
    assert.equal(log.body()._entries[0].Estado, 'Desactivada')

    // The next inquiry queues no webhook at all.
    const next = await postInquiry(client, world)
    assert.lengthOf(await deliveriesOf(sidOf(next.header('location')!)), 0)
    assert.lengthOf(receiver.requests, 1)
  })
})

test.group('Lead deliveries: resend', (group) => {
  let receiver: Receiver

  group.setup(async () => {
    await startLeadWorkers()
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => receiver.reset())

  test('202, Location = Callback, body = payload with Reenvio; same webhook-id, valid signature; ADF status resend', async ({
    client,
    assert,
  }) => {
    const { world, config } = await withWebhook(receiver, '/hook', {
      PublicacionConsultadaAdfHook: { Callback: receiver.url('/adf'), Activo: true },
    })
    await configureNotifications(client, world, config)
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    await settledDeliveries(sid, 2)
    const [original] = (await receiver.waitFor(2)).filter((r) => r.path === '/hook')

    const resent = await client
      .post(`/v3/consultas/${world.adminMail}/${sid}/resendwebhook`)
      .bearerToken(world.token)
    resent.assertStatus(202)
    assert.equal(resent.header('location'), receiver.url('/hook'))
    assert.isTrue(resent.body().Reenvio)
    assert.equal(resent.body().Tipo, 'PublicacionConsultada')
    assert.deepEqual(resent.body().Consulta, original.json().Consulta)

    const requests = await receiver.waitFor(4)
    const again = requests.slice(2).find((r) => r.path === '/hook')!
    assert.equal(again.headers['webhook-id'], original.headers['webhook-id'])
    const verified = new Webhook(SECRET).verify(
      again.body,
      again.headers as Record<string, string>
    ) as any
    assert.isTrue(verified.Reenvio)
    assert.deepEqual(verified, resent.body())
    const adfAgain = requests.slice(2).find((r) => r.path === '/adf')!
    assert.include(adfAgain.body, '<prospect status="resend">')

    // Still one delivery per channel; the webhook's log holds both rounds.
    const deliveries = await settledDeliveries(sid, 2)
    assert.lengthOf(deliveries, 2)
    assert.lengthOf(deliveries.find((d) => d.channel === 'webhook')!.attempts, 2)
  })

  test('errors: 403 agency not for the app, 404 unknown inquiry, 400 without an active webhook or with the window closed', async ({
    client,
    assert,
  }) => {
    const { world, config } = await withWebhook(receiver)
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const url = `/v3/consultas/${world.adminMail}/${sid}/resendwebhook`

    const noHook = await client.post(url).bearerToken(world.token)
    noHook.assertStatus(400)
    assert.property(noHook.body().Errors, '_')

    await configureNotifications(client, world, config)
    const inactive = {
      PublicacionConsultadaWebHook: { ...config.PublicacionConsultadaWebHook, Activo: false },
    }
    await configureNotifications(client, world, inactive)
    ;(await client.post(url).bearerToken(world.token)).assertStatus(400)
    await configureNotifications(client, world, config)
    ;(await client.post(url).bearerToken(world.token)).assertStatus(202)

    await db
      .from('inquiries')
      .where('sid', sid)
      .update({ resend_closes_at: new Date(Date.now() - 1000) })
    const closed = await client.post(url).bearerToken(world.token)
    closed.assertStatus(400)
    assert.property(closed.body().Errors, '_')

    ;(
      await client
        .post(`/v3/consultas/${world.adminMail}/nope/resendwebhook`)
        .bearerToken(world.token)
    ).assertStatus(404)
    const { token: stranger } = await createCaller('Stranger')
    ;(await client.post(url).bearerToken(stranger)).assertStatus(403)
    ;(
      await client
        .post(`/v3/consultas/nadie@example.com/${sid}/resendwebhook`)
        .bearerToken(world.token)
    ).assertStatus(403)
  })

  test('leads.expire-resend closes the windows that ran out, and only those', async ({
    client,
    assert,
  }) => {
    const { world, config } = await withWebhook(receiver)
    await configureNotifications(client, world, config)
    const post = async () => sidOf((await postInquiry(client, world)).header('location')!)
    const [old, fresh] = [await post(), await post()]
    const days = settings.resendWindowDays
    const received = new Date(Date.now() - days * 86_400_000 - 60_000)
    await db
      .from('inquiries')
      .where('sid', old)
      .update({
        received_at: received,
        resend_closes_at: new Date(received.getTime() + days * 86_400_000),
      })

    const runner = await app.container.make(JobRunner)
    await runner.runNow('leads.expire-resend')
    const flags = await db
      .from('inquiries')
      .whereIn('sid', [old, fresh])
      .select('sid', 'resend_open')
    assert.deepEqual(Object.fromEntries(flags.map((row) => [row.sid, row.resend_open])), {
      [old]: false,
      [fresh]: true,
    })

    ;(
      await client
        .post(`/v3/consultas/${world.adminMail}/${old}/resendwebhook`)
        .bearerToken(world.token)
    ).assertStatus(400)
    ;(
      await client
        .post(`/v3/consultas/${world.adminMail}/${fresh}/resendwebhook`)
        .bearerToken(world.token)
    ).assertStatus(202)
  })
})

test.group('Lead deliveries: operator commands', (group) => {
  let receiver: Receiver
  const initialSchedule = settings.deliveryRetrySchedule

  group.setup(async () => {
    await startLeadWorkers()
    settings.deliveryRetrySchedule = [0.2]
    receiver = await startReceiver()
    return async () => {
      settings.deliveryRetrySchedule = initialSchedule
      await receiver.close()
    }
  })

  test('deliveries:list --failed shows a dead delivery; deliveries:retry ID delivers it with the same webhook-id', async ({
    client,
    assert,
  }) => {
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    const { default: DeliveriesList } = await import('#leads/commands/deliveries_list')
    const { default: DeliveriesRetry } = await import('#leads/commands/deliveries_retry')

    const { world, config } = await withWebhook(receiver, '/flaky')
    await configureNotifications(client, world, config)
    receiver.route('/flaky', { status: 503 })
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const [dead] = await settledDeliveries(sid, 1)
    assert.equal(dead.status, 'dead')
    assert.lengthOf(dead.attempts, 2)

    const list = await ace.create(DeliveriesList, ['--failed', '--json', '--limit', '500'])
    await list.exec()
    list.assertSucceeded()
    const listed = list.logger.getLogs().map((log) => JSON.parse(log.message))
    const row = listed.find((entry) => entry.id === dead.id)
    assert.include(row, {
      status: 'dead',
      channel: 'webhook',
      owner: `inquiry:${dead.ownerId}`,
      attempts: 2,
    })

    receiver.route('/flaky', { status: 204 })
    const retry = await ace.create(DeliveriesRetry, [dead.id])
    await retry.exec()
    retry.assertSucceeded()
    const [delivered] = await settledDeliveries(sid, 1)
    assert.equal(delivered.status, 'delivered')
    assert.lengthOf(delivered.attempts, 3)
    assert.lengthOf(new Set(receiver.requests.map((r) => r.headers['webhook-id'])), 1)

    const unknown = await ace.create(DeliveriesRetry, ['00000000-0000-4000-8000-000000000000'])
    await unknown.exec()
    unknown.assertFailed()
  })

  test('deliveries:list --limit: 1 and 10 000 list; 0, 1.5, 1e3, 10 001 and 99999999999 are one line and exit 1', async ({
    assert,
  }) => {
    const ace = await app.container.make('ace')
    ace.ui.switchMode('raw')
    const { default: DeliveriesList } = await import('#leads/commands/deliveries_list')
    // The raw logger is the ace kernel's, shared by every command: read what each run added.
    const run = async (limit: string) => {
      const list = await ace.create(DeliveriesList, ['--json', '--limit', limit])
      const before = list.logger.getLogs().length
      await list.exec()
      return { list, logs: list.logger.getLogs().slice(before) }
    }
    for (const limit of ['1', '10000']) {
      const { list, logs } = await run(limit)
      list.assertSucceeded()
      assert.isAtMost(logs.length, Number(limit))
    }
    for (const limit of ['0', '1.5', '1e3', '10001', '99999999999', 'abc']) {
      const { list, logs } = await run(limit)
      list.assertFailed()
      assert.lengthOf(logs, 1, limit)
      assert.include(
        logs[0].message,
        `--limit must be a whole number from 1 to 10000, not "${limit}"`
      )
    }
  })
})
