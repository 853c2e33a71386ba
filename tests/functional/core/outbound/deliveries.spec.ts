import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { outbound } from '#core/outbound/http_client'
import {
  DeliveryService,
  deliveryQueue,
  deliveryWork,
  parseRetryAfter,
  type DeliveryJob,
  type NewDelivery,
} from '#core/outbound/deliveries'
import Delivery from '#core/outbound/models/delivery'
import { createCaller } from '#tests/helpers/apps'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { until } from '#tests/helpers/until'
import { liveDeliveryJobs, settledDelivery, shortRetries } from '#tests/helpers/deliveries'

/** The process's delivery service, as the container builds it for its users. */
const deliveries = await app.container.make(DeliveryService)

const QUEUE = 'test.deliveries'
/** A queue nobody works: the rules group drives `attempt` by hand, without a worker racing it. */
const IDLE = 'test.deliveries.idle'
const gone: string[] = []

/** A delivery queue handler as a module writes one: POST the payload, report 410s. */
class TestDeliveryHandler {
  async handle(data: DeliveryJob) {
    const result = await deliveries.attempt(data.deliveryId, async (delivery) => {
      const response = await outbound.request(delivery.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': delivery.messageId },
        body: JSON.stringify(delivery.payload),
        timeoutMs: 2000,
      })
      return { status: response.status, headers: response.headers }
    })
    if (result === 'gone') gone.push(data.deliveryId)
  }
}

/** Jobs of a delivery not yet settled; the worker completes a job just after its handler returns. */
async function openJobs(id: string, queue = QUEUE) {
  return until(
    () => liveDeliveryJobs(id, queue),
    (n) => n === 0,
    3000
  )
}

async function create(appId: number, target: string, payload: object = { hello: 'world' }) {
  return idle({ appId, ownerId: `o-${Math.random()}`, target, payload, queue: QUEUE })
}

/** A test owner's delivery (by default on the idle queue, to a closed port), in `trx` or a transaction of its own. */
function idle(
  fields: Pick<NewDelivery, 'appId' | 'ownerId'> & Partial<NewDelivery>,
  trx?: TransactionClientContract
) {
  const input = {
    channel: 'test',
    ownerType: 'test',
    target: 'http://127.0.0.1:9/',
    payload: {},
    queue: IDLE,
    ...fields,
  }
  return trx ? deliveries.create(input, trx) : db.transaction((t) => deliveries.create(input, t))
}

test.group('Deliveries: retries through a real worker', (group) => {
  let receiver: Receiver
  let appId: number
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    runner.register({
      name: QUEUE,
      queue: deliveryQueue,
      work: deliveryWork,
      handler: async () => ({ default: TestDeliveryHandler }),
    })
    await runner.work({ work: [QUEUE] })
    receiver = await startReceiver()
    appId = (await createCaller('Deliveries test')).app.id
    return () => receiver.close()
  })
  group.each.setup(() => {
    receiver.reset()
    const restore = shortRetries()
    settings.outboundAllowPrivate = true
    return restore
  })

  test('500 twice then 200: delivered on the third attempt, three attempts logged', async ({
    assert,
  }) => {
    receiver.script({ status: 500 }, { status: 500 }, { status: 200 })
    const created = await create(appId, receiver.url('/hook'), { n: 1 })
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'delivered')
    assert.isNotNull(delivery.deliveredAt)
    assert.equal(delivery.attemptCount, 3)

    const [logged] = await deliveries.list(created.ownerType, created.ownerId)
    assert.deepEqual(
      logged.attempts.map((attempt) => [attempt.number, attempt.statusCode]),
      [
        [1, 500],
        [2, 500],
        [3, 200],
      ]
    )
    assert.equal(logged.attempts[0].error, 'HTTP 500')
    assert.isNull(logged.attempts[2].error)
    assert.lengthOf(receiver.requests, 3)
    // The message id is stable across retries.
    assert.deepEqual(
      [...new Set(receiver.requests.map((request) => request.headers['webhook-id']))],
      [created.messageId]
    )
    assert.deepEqual(receiver.requests[2].json(), { n: 1 })
    assert.equal(await openJobs(created.id), 0)
  })

  test('receiver down, then up: the retry delivers', async ({ assert }) => {
    const later = await startReceiver()
    const port = later.port
    await later.close()
    settings.deliveryRetrySchedule = [0.5, 0.5, 0.5]
    const created = await create(appId, `http://127.0.0.1:${port}/hook`)
    const failedOnce = await until(
      () => Delivery.findOrFail(created.id),
      (delivery) => delivery.attemptCount >= 1 && delivery.status === 'failed'
    )
    assert.equal(failedOnce.status, 'failed')
    assert.match(failedOnce.lastError!, /^network: /)
    const up = await startReceiver({ port })
    try {
      const delivery = await settledDelivery(created.id)
      assert.equal(delivery.status, 'delivered')
      assert.lengthOf(up.requests, 1)
      const [logged] = await deliveries.list(created.ownerType, created.ownerId)
      assert.isNull(logged.attempts[0].statusCode)
      assert.equal(logged.attempts.at(-1)!.statusCode, 200)
    } finally {
      await up.close()
    }
  })

  test('410: disabled at once, reported as gone, no further attempt queued', async ({ assert }) => {
    receiver.setDefault({ status: 410 })
    const created = await create(appId, receiver.url('/gone'))
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'disabled')
    assert.equal(delivery.attemptCount, 1)
    assert.isNull(delivery.nextAttemptAt)
    assert.include(gone, created.id)
    assert.equal(await openJobs(created.id), 0)
    assert.lengthOf(receiver.requests, 1)
  })

  test('Retry-After seconds pushes the next try later than the schedule', async ({ assert }) => {
    receiver.script({ status: 503, retryAfter: 2 }, { status: 200 })
    const created = await create(appId, receiver.url('/busy'))
    const waiting = await until(
      () => Delivery.findOrFail(created.id),
      (delivery) => delivery.status === 'failed'
    )
    const [logged] = await deliveries.list(created.ownerType, created.ownerId)
    const asked = waiting.nextAttemptAt!.toMillis() - logged.attempts[0].attemptedAt.toMillis()
    assert.isAtLeast(asked, 2000)
    const job = await db.rawQuery(
      `select start_after from pgboss.job where name = ? and data->>'deliveryId' = ? and state = 'created'`,
      [QUEUE, created.id]
    )
    assert.equal(new Date(job.rows[0].start_after).getTime(), waiting.nextAttemptAt!.toMillis())
    const delivery = await settledDelivery(created.id)
    assert.equal(delivery.status, 'delivered')
    assert.isAtLeast(
      receiver.requests[1].receivedAt.getTime() - receiver.requests[0].receivedAt.getTime(),
      1900
    )
  })

  test('after the last try the delivery is dead, and a resend delivers it with the same message id', async ({
    assert,
  }) => {
    receiver.setDefault({ status: 500 })
    const created = await create(appId, receiver.url('/down'))
    const dead = await settledDelivery(created.id)
    assert.equal(
      dead.status,
      'dead',
      `status ${dead.status} after ${dead.attemptCount} tries (${dead.lastError})`
    )
    // One first try plus one per schedule entry.
    assert.equal(dead.attemptCount, settings.deliveryRetrySchedule.length + 1)
    assert.equal(await openJobs(created.id), 0)

    receiver.setDefault({ status: 204 })
    // Without a transaction: resend opens its own (what deliveries:retry calls).
    const [again] = await deliveries.resend(created.id)
    assert.equal(again.status, 'pending')
    const delivered = await settledDelivery(created.id)
    assert.equal(
      delivered.status,
      'delivered',
      `status ${delivered.status} after ${delivered.attemptCount} tries (${delivered.lastError})`
    )
    assert.equal(delivered.attemptCount, settings.deliveryRetrySchedule.length + 2)
    assert.equal(receiver.requests.at(-1)!.headers['webhook-id'], created.messageId)
  })

  test('resend by owner can replace the payload and keeps the message id', async ({ assert }) => {
    const created = await create(appId, receiver.url('/ok'), { first: true })
    await settledDelivery(created.id)
    await db.transaction((trx) =>
      deliveries.resend({ ownerType: created.ownerType, ownerId: created.ownerId }, trx, {
        payload: { again: true },
      })
    )
    await receiver.waitFor(2)
    const delivered = await settledDelivery(created.id)
    assert.equal(delivered.status, 'delivered')
    assert.deepEqual(receiver.requests[1].json(), { again: true })
    assert.equal(receiver.requests[1].headers['webhook-id'], created.messageId)
  })
})

test.group('Deliveries: service rules', (group) => {
  let appId: number
  const initial = settings.deliveryRetrySchedule
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    runner.register({
      name: IDLE,
      queue: deliveryQueue,
      handler: async () => ({ default: TestDeliveryHandler }),
    })
    appId = (await createCaller('Deliveries rules')).app.id
  })
  group.each.teardown(() => {
    settings.deliveryRetrySchedule = initial
  })

  test('a delivery created in a rolled-back transaction leaves no row and no job', async ({
    assert,
  }) => {
    const trx = await db.transaction()
    const created = await idle({ appId, ownerId: 'rollback' }, trx)
    await trx.rollback()
    assert.isNull(await Delivery.find(created.id))
    assert.equal(await openJobs(created.id, IDLE), 0)
  })

  test('a delivered delivery is skipped: duplicate jobs send nothing', async ({ assert }) => {
    const created = await idle({ appId, ownerId: 'dup' })
    let sends = 0
    const first = await deliveries.attempt(created.id, async () => (sends++, { status: 200 }))
    const second = await deliveries.attempt(created.id, async () => (sends++, { status: 200 }))
    assert.equal(first, 'delivered')
    assert.equal(second, 'skipped')
    assert.equal(sends, 1)
    assert.equal(await deliveries.attempt('not-a-uuid', async () => ({ status: 200 })), 'skipped')
  })

  test('a failed try is not repeated before it is due', async ({ assert }) => {
    settings.deliveryRetrySchedule = [60]
    const created = await idle({ appId, ownerId: 'due' })
    assert.equal(await deliveries.attempt(created.id, async () => ({ status: 502 })), 'retry')
    assert.equal(await deliveries.attempt(created.id, async () => ({ status: 200 })), 'skipped')
    const thrown = await deliveries.attempt(created.id, async () => {
      throw new Error('never called')
    })
    assert.equal(thrown, 'skipped')
  })

  test('cancel disables an open delivery and leaves a settled one alone', async ({ assert }) => {
    const make = (ownerId: string) => idle({ appId, ownerId })
    const open = await make('cancel-open')
    const done = await make('cancel-done')
    await deliveries.attempt(done.id, async () => ({ status: 200 }))
    await deliveries.cancel(open.id, 'channel off')
    await deliveries.cancel(done.id, 'channel off')
    const openNow = await Delivery.findOrFail(open.id)
    assert.equal(openNow.status, 'disabled')
    assert.equal(openNow.lastError, 'channel off')
    assert.equal(await deliveries.attempt(open.id, async () => ({ status: 200 })), 'skipped')
    assert.equal((await Delivery.findOrFail(done.id)).status, 'delivered')
  })

  test("an owner's deliveries: listed for one app, the newest of a channel", async ({ assert }) => {
    const other = (await createCaller('Deliveries rules, other app')).app.id
    const make = (forApp: number, channel: string) =>
      idle({ appId: forApp, ownerId: 'owner-of-many', channel })
    const first = await make(appId, 'test')
    const second = await make(appId, 'test')
    const mine = await make(appId, 'other')
    const theirs = await make(other, 'test')
    const ids = (list: Array<{ id: string }>) => list.map((delivery) => delivery.id).sort()
    assert.deepEqual(
      ids(await deliveries.list('test', 'owner-of-many', { appId })),
      ids([first, second, mine])
    )
    assert.deepEqual(
      ids(await deliveries.list('test', 'owner-of-many')),
      ids([first, second, mine, theirs])
    )
    const owner = { ownerType: 'test', ownerId: 'owner-of-many', appId }
    assert.equal((await deliveries.latest({ ...owner, channel: 'test' }))?.id, second.id)
    assert.equal((await deliveries.latest({ ...owner, channel: 'other' }))?.id, mine.id)
    assert.isNull(await deliveries.latest({ ...owner, channel: 'none' }))
  })

  test('the schedule: jitter stays within ±20 %, and it ends after its last entry', ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = [5, 300, 1800, 7200, 18000, 36000, 86400]
    for (let tried = 1; tried <= 7; tried++) {
      const base = settings.deliveryRetrySchedule[tried - 1] * 1000
      for (let i = 0; i < 50; i++) {
        const delay = deliveries.nextDelay(tried)!
        assert.isAtLeast(delay, base * 0.8)
        assert.isAtMost(delay, base * 1.2)
      }
    }
    assert.isNull(deliveries.nextDelay(8))
  })

  test('Retry-After: seconds or HTTP-date, never earlier than the schedule, capped at a day', ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = [5]
    assert.equal(parseRetryAfter('120'), 120_000)
    assert.isNull(parseRetryAfter('soon'))
    assert.isNull(parseRetryAfter(undefined))
    const inAMinute = new Date(Date.now() + 60_000).toUTCString()
    const fromDate = parseRetryAfter(inAMinute)!
    assert.isAtLeast(fromDate, 58_000)
    assert.isAtMost(fromDate, 60_000)
    assert.equal(deliveries.nextDelay(1, '120'), 120_000)
    assert.isAtMost(deliveries.nextDelay(1, '1')!, 6000)
    assert.isAtLeast(deliveries.nextDelay(1, '1')!, 4000)
    assert.equal(deliveries.nextDelay(1, String(86_400)), 86_400_000)
    assert.equal(deliveries.nextDelay(1, String(86_401)), 86_400_000)
  })
})
