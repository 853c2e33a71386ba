/*
 * Deliveries that cannot be lost (issue 11): a private target is dead at once,
 * a crashed try's job takes its own claim over, the outcome of a try survives
 * a database that fails while it is recorded, the sweeper re-queues open
 * deliveries without a live job (and `deliveries:list` shows them), and mails
 * carry one Message-ID per delivery.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import type { JobContext } from '#core/jobs/types'
import { settings } from '#core/settings'
import { outbound } from '#core/outbound/http_client'
import {
  DeliveryService,
  deliveryQueue,
  deliveryWork,
  mailMessageId,
  type DeliveryJob,
} from '#core/outbound/deliveries'
import Delivery from '#core/outbound/models/delivery'
import { DELIVERIES_SWEEP } from '#core/outbound/jobs'
import AdfMailJob from '#leads/jobs/adf_mail_job'
import { createCaller } from '#tests/helpers/apps'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { startSmtpSink } from '#tests/helpers/smtp_sink'
import { until } from '#tests/helpers/until'
import { liveDeliveryJobs, settledDelivery, shortRetries } from '#tests/helpers/deliveries'

/** The process's delivery service, as the container builds it for its users. */
const deliveries = await app.container.make(DeliveryService)

const WORKED = 'test.recovery'
/** Nobody works this queue: tests drive `attempt` by hand. */
const IDLE = 'test.recovery.idle'

class Handler {
  async handle(data: DeliveryJob, job: JobContext) {
    await deliveries.attempt(
      data.deliveryId,
      async (delivery) => {
        const response = await outbound.request(delivery.target, {
          method: 'POST',
          body: '{}',
          timeoutMs: 2000,
        })
        return { status: response.status, headers: response.headers }
      },
      job
    )
  }
}

const job = (id: string): JobContext => ({ id, name: IDLE, retryCount: 0 })

function create(appId: number, target: string, queue: string, ownerId = `o-${Math.random()}`) {
  return db.transaction((trx) =>
    deliveries.create(
      { channel: 'test', ownerType: 'test', ownerId, appId, target, payload: {}, queue },
      trx
    )
  )
}

/** What a worker killed mid-try leaves: the try claimed by `jobId`, no outcome, and (optionally) no job. */
async function leaveInterruptedClaim(id: string, jobId: string, dropJob: boolean) {
  await db.rawQuery(
    `update deliveries set attempt_count = 1, round_attempts = 1, next_attempt_at = now() + interval '120 seconds', claim_job_id = ? where id = ?`,
    [jobId, id]
  )
  if (dropJob) await db.rawQuery(`delete from pgboss.job where data->>'deliveryId' = ?`, [id])
}

async function listed(args: string[]) {
  const ace = await app.container.make('ace')
  ace.ui.switchMode('raw')
  const { default: DeliveriesList } = await import('#leads/commands/deliveries_list')
  const command = await ace.create(DeliveriesList, [...args, '--json', '--limit', '1000'])
  await command.exec()
  command.assertSucceeded()
  return command.logger.getLogs().map((log) => JSON.parse(log.message)) as Array<{
    id: string
    status: string
    stuck: boolean
  }>
}

test.group('Deliveries: recovery', (group) => {
  let receiver: Receiver
  let appId: number
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    runner.register(
      {
        name: WORKED,
        queue: deliveryQueue,
        work: deliveryWork,
        handler: async () => ({ default: Handler }),
      },
      { name: IDLE, queue: deliveryQueue, handler: async () => ({ default: Handler }) }
    )
    await runner.work({ work: [WORKED] })
    receiver = await startReceiver()
    appId = (await createCaller('Recovery test')).app.id
    return () => receiver.close()
  })
  group.each.setup(() => {
    receiver.reset()
    return shortRetries()
  })

  test('a target that resolves to a private address is dead after one attempt, with the reason', async ({
    assert,
  }) => {
    settings.outboundAllowPrivate = false
    const created = await create(appId, `http://localhost:${receiver.port}/hook`, WORKED)
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'dead')
    assert.equal(delivery.attemptCount, 1)
    assert.lengthOf(delivery.attempts, 1)
    assert.match(delivery.attempts[0].error!, /^private_address: /)
    assert.match(delivery.lastError!, /^private_address: /)
    assert.isNull(delivery.nextAttemptAt)
    // The try's own job completes just after it recorded the outcome; no retry job may follow it.
    assert.equal(
      await until(
        () => liveDeliveryJobs(created.id),
        (n) => n === 0
      ),
      0
    )
    assert.lengthOf(receiver.requests, 0)
  })

  test('a network failure is still retried (only permanent errors are dead at once)', async ({
    assert,
  }) => {
    const closed = await startReceiver()
    const port = closed.port
    await closed.close()
    const created = await create(appId, `http://127.0.0.1:${port}/hook`, WORKED)
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'dead')
    assert.equal(delivery.attemptCount, settings.deliveryRetrySchedule.length + 1)
  })

  test('the job of a crashed try takes its claim over at once; another job must wait for the claim', async ({
    assert,
  }) => {
    const created = await create(appId, 'http://127.0.0.1:9/', IDLE)
    await leaveInterruptedClaim(created.id, 'job-a', false)
    let sends = 0
    const send = async () => (sends++, { status: 200 })
    assert.equal(await deliveries.attempt(created.id, send, job('job-b')), 'skipped')
    assert.equal(await deliveries.attempt(created.id, send, job('job-a')), 'delivered')
    assert.equal(sends, 1)
    const delivery = await settledDelivery(created.id)
    assert.isNull(delivery.claimJobId)
    assert.deepEqual(
      delivery.attempts.map((attempt) => [attempt.number, attempt.statusCode, attempt.error]),
      [
        [1, null, 'interrupted: the worker stopped before the outcome was recorded'],
        [2, 200, null],
      ]
    )
    // Recorded: a later run of the same job finds nothing to do.
    assert.equal(await deliveries.attempt(created.id, send, job('job-a')), 'skipped')
  })

  test('a try whose outcome cannot be written at first is recorded once the database accepts it, not sent again', async ({
    assert,
  }) => {
    const created = await create(appId, receiver.url('/once'), IDLE)
    // The database refuses the first two writes of this delivery's attempt (as during an outage).
    // A sequence, since a failing statement rolls back anything else it writes.
    await db.rawQuery('drop sequence if exists test_outage_writes')
    await db.rawQuery('create sequence test_outage_writes')
    await db.rawQuery(`create or replace function test_outage_fail() returns trigger language plpgsql as $$
      begin
        if new.delivery_id = '${created.id}' and nextval('test_outage_writes') <= 2 then
          raise exception 'simulated outage';
        end if;
        return new;
      end $$`)
    await db.rawQuery(
      'create trigger test_outage before insert on delivery_attempts for each row execute function test_outage_fail()'
    )
    try {
      const result = await deliveries.attempt(
        created.id,
        async (delivery) => {
          const response = await outbound.request(delivery.target, { method: 'POST', body: '{}' })
          return { status: response.status }
        },
        job('job-outage')
      )
      assert.equal(result, 'delivered')
    } finally {
      await db.rawQuery('drop trigger test_outage on delivery_attempts')
      await db.rawQuery('drop function test_outage_fail')
      await db.rawQuery('drop sequence test_outage_writes')
    }
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'delivered')
    assert.deepEqual(
      delivery.attempts.map((attempt) => attempt.statusCode),
      [200]
    )
    assert.lengthOf(receiver.requests, 1)
  })

  test('an open delivery without a live job is listed as stuck (also by --failed) and the sweeper delivers it', async ({
    assert,
  }) => {
    const created = await db.transaction(async (trx) => {
      const delivery = await deliveries.create(
        {
          channel: 'test',
          ownerType: 'test',
          ownerId: 'lost',
          appId,
          target: receiver.url('/lost'),
          payload: {},
          queue: WORKED,
        },
        trx
      )
      // Its job is lost (as when pg-boss gave up on it).
      await trx.rawQuery(`delete from pgboss.job where data->>'deliveryId' = ?`, [delivery.id])
      return delivery
    })
    const withJob = await create(appId, 'http://127.0.0.1:9/', IDLE)

    const stuck = await listed(['--stuck'])
    assert.deepInclude(
      stuck.find((row) => row.id === created.id),
      { status: 'pending', stuck: true }
    )
    assert.isUndefined(stuck.find((row) => row.id === withJob.id))
    assert.deepInclude(
      (await listed(['--failed'])).find((row) => row.id === created.id),
      { stuck: true }
    )
    const overview = await deliveries.overview({ only: 'stuck', limit: 1000 })
    assert.include(
      overview.deliveries.map((delivery) => delivery.id),
      created.id
    )
    assert.isTrue(overview.stuck.has(created.id))
    assert.isFalse(overview.stuck.has(withJob.id))

    await deliveries.sweep()
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'delivered')
    assert.lengthOf(receiver.requests, 1)
    // A delivery whose job is alive is left alone.
    assert.equal(await liveDeliveryJobs(withJob.id), 1)
    assert.isUndefined((await listed(['--stuck'])).find((row) => row.id === created.id))
  })

  test('a claim left by a dead job does not hold the sweeper back: delivered, the lost try logged', async ({
    assert,
  }) => {
    const created = await create(appId, receiver.url('/claimed'), WORKED)
    await settledDelivery(created.id)
    // Again, as if a worker had died mid-try and the job had spent its retries.
    await db.rawQuery(
      `update deliveries set status = 'pending', attempt_count = 0, delivered_at = null where id = ?`,
      [created.id]
    )
    await db.rawQuery(`delete from delivery_attempts where delivery_id = ?`, [created.id])
    await leaveInterruptedClaim(created.id, '00000000-0000-4000-8000-000000000001', true)
    receiver.reset()

    await deliveries.sweep()
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'delivered')
    assert.deepEqual(
      delivery.attempts.map((attempt) => [attempt.number, attempt.statusCode]),
      [
        [1, null],
        [2, 200],
      ]
    )
    assert.lengthOf(receiver.requests, 1)
  })

  test('the sweeper runs every minute', async ({ assert }) => {
    const runner = await app.container.make(JobRunner)
    const sweep = runner.definitions().find((definition) => definition.name === DELIVERIES_SWEEP)
    assert.equal(sweep?.schedule, '* * * * *')
  })

  test('delivery queues heartbeat (a killed worker is noticed in seconds) and retry a lost job within seconds', ({
    assert,
  }) => {
    assert.isAtLeast(deliveryQueue.heartbeatSeconds!, 10)
    assert.isAtMost(deliveryQueue.heartbeatSeconds!, 15)
    assert.isAtMost(deliveryQueue.retryDelay!, 5)
  })
})

test.group('Deliveries: mail Message-ID', () => {
  test('two attempts of one mail delivery carry the same Message-ID, derived from the delivery id', async ({
    assert,
  }) => {
    const sink = await startSmtpSink()
    try {
      const { app: caller } = await createCaller('Message-ID test')
      const to = `crm-${Date.now()}@example.com`
      const created = await db.transaction((trx) =>
        deliveries.create(
          {
            channel: 'adfMail',
            ownerType: 'test',
            ownerId: `mid-${Date.now()}`,
            appId: caller.id,
            target: to,
            payload: { configId: 0, subject: 'Consulta', xml: '<adf/>' },
            queue: IDLE,
          },
          trx
        )
      )
      const handler = new AdfMailJob()
      await handler.handle({ deliveryId: created.id }, job('mail-1'))
      await db.transaction((trx) => deliveries.resend(created.id, trx))
      await handler.handle({ deliveryId: created.id }, job('mail-2'))

      const mails = await sink.waitFor((mail) => mail.envelope.to.includes(to))
      await until(
        async () => sink.messages.filter((mail) => mail.envelope.to.includes(to)),
        (list) => list.length >= 2
      )
      const ids = sink.messages
        .filter((mail) => mail.envelope.to.includes(to))
        .map((mail) => mail.parsed.messageId)
      assert.lengthOf(ids, 2)
      assert.equal(ids[0], ids[1])
      assert.equal(ids[0], `<delivery-${created.id}@${new URL(settings.publicUrl).hostname}>`)
      assert.equal(mailMessageId(created), ids[0])
      assert.isAbove(mails.length, 0)
      const delivery = await Delivery.findOrFail(created.id)
      assert.equal(delivery.status, 'delivered')
      assert.equal(delivery.attemptCount, 2)
    } finally {
      await sink.close()
    }
  })
})
