/*
 * A worker killed with SIGKILL in the middle of a delivery loses nothing: once
 * the dead worker's claim and job lapse (DeliveryService: 120 s claim, pg-boss
 * expiry 120 s + retry delay 150 s), another worker delivers it with the same
 * webhook-id. It takes about five minutes, so it runs only when asked:
 *
 *   LEADS_CRASH_TEST=1 npm test -- --files tests/functional/leads/worker_crash.spec.ts
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { spawn, type ChildProcess } from 'node:child_process'
import JobRunner from '#core/jobs/runner'
import env from '#start/env'
import { startReceiver } from '#tests/helpers/receiver'
import { dealerWorld, inquiryBody, settledDeliveries, sidOf, startLeadWorkers, until } from '#tests/helpers/leads'

const enabled = process.env.LEADS_CRASH_TEST === '1'

function worker(): ChildProcess {
  return spawn(process.execPath, ['ace.js', 'jobs:work', '--queues', 'leads.webhook'], {
    cwd: app.makePath(),
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: env.get('DATABASE_URL'),
      OUTBOUND_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  })
}

test.group('Lead deliveries: a worker killed mid-delivery', () => {
  test('SIGKILL while the receiver is answering; a restarted worker delivers with the same webhook-id', async ({ client, assert }) => {
    const runner = await app.container.make(JobRunner)
    await runner.stop() // only the child workers work the queue in this test
    const receiver = await startReceiver()
    const children: ChildProcess[] = []
    try {
      const world = await dealerWorld()
      const config = { PublicacionConsultadaWebHook: { Callback: receiver.url('/hook'), Activo: true } }
      ;(await client.put(`/v3/notificaciones/${world.adminMail}`).bearerToken(world.token).json(config)).assertStatus(200)
      // The first try gets no answer before the worker dies (the webhook timeout is 15 s).
      receiver.script({ delayMs: 20_000 })

      children.push(worker())
      const created = await client.post(`/v3/consultas/${world.adminMail}`).bearerToken(world.token).json(inquiryBody(world.listing.externalId))
      const sid = sidOf(created.header('location')!)
      const [first] = await until(async () => receiver.requests, (list) => list.length >= 1, 60_000)
      children[0].kill('SIGKILL')

      children.push(worker())
      const [delivery] = await settledDeliveries(sid, 1, 420_000)
      assert.equal(delivery.status, 'delivered')
      const second = receiver.requests[1]
      assert.equal(second.headers['webhook-id'], first.headers['webhook-id'])
      assert.equal(second.headers['webhook-id'], `msg_${sid}`)
      assert.equal(second.body, first.body)
    } finally {
      for (const child of children) child.kill('SIGKILL')
      await receiver.close()
      await startLeadWorkers()
    }
  })
    .timeout(600_000)
    .skip(!enabled, 'slow (about five minutes): set LEADS_CRASH_TEST=1')
})
