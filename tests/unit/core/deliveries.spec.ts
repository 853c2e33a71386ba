/*
 * DeliveryService alone (docs/design.md §8): the retry schedule, Retry-After,
 * 410, dead-lettering and its hooks, cancel, resend, the sweeper — over a
 * hand-rolled store, runner and unit of work; no PostgreSQL. The claim's and
 * the outcome's SQL are the store's, tested end to end in
 * tests/functional/core/outbound/.
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import type JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import type { Tx } from '#core/database/unit_of_work'
import { OutboundError } from '#core/outbound/http_client'
import {
  Delivery,
  DeliveryService,
  type AttemptResult,
  type DeadDeliveryHook,
  type SendOutcome,
} from '#core/outbound/deliveries'
import type DeadDeliveryHooks from '#core/outbound/dead_hooks'
import type DeliveryStore from '#core/stores/delivery_store'
import type {
  AttemptRow,
  ClaimedRow,
  DeliverySelector,
  NewDeliveryRow,
  OrphanRow,
  DeliveryChanges,
  Settlement,
} from '#core/stores/delivery_store'
import type { DeliveryStatus } from '#core/outbound/models/delivery'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'

const QUEUE = 'test.unit.deliveries'

/** The store over a map: the claim and the outcome keep the guards of their SQL. */
class FakeDeliveryStore implements Pick<
  DeliveryStore,
  | 'insert'
  | 'claim'
  | 'recordInterrupted'
  | 'insertAttempt'
  | 'settle'
  | 'savepoint'
  | 'lock'
  | 'update'
  | 'disable'
  | 'find'
  | 'orphans'
  | 'makeDue'
  | 'stuckIds'
  | 'newest'
> {
  rows = new Map<string, Delivery>()
  attempts: AttemptRow[] = []
  orphanRows: OrphanRow[] = []
  madeDue: string[] = []
  /** Transactions the writes ran in. */
  writesIn: Array<Tx | undefined> = []

  async insert(row: NewDeliveryRow, tx?: Tx) {
    this.writesIn.push(tx)
    const delivery = new Delivery()
    delivery.merge({
      ...row,
      status: 'pending',
      attemptCount: 0,
      roundAttempts: 0,
      nextAttemptAt: DateTime.now(),
      lastError: null,
      claimJobId: null,
      deliveredAt: null,
      createdAt: DateTime.now(),
    })
    this.rows.set(row.id, delivery)
  }

  async claim(id: string, jobId: string, claimSeconds: number): Promise<ClaimedRow | null> {
    const row = this.rows.get(id)
    if (!row || !['pending', 'failed'].includes(row.status)) return null
    const due = !row.nextAttemptAt || row.nextAttemptAt <= DateTime.now().plus({ seconds: 1 })
    if (!due && row.claimJobId !== jobId) return null
    const previousClaim = row.claimJobId
    row.merge({
      attemptCount: row.attemptCount + 1,
      roundAttempts: row.roundAttempts + 1,
      nextAttemptAt: DateTime.now().plus({ seconds: claimSeconds }),
      claimJobId: jobId,
    })
    // A fresh row, as RETURNING gives.
    return { delivery: copy(row), previousClaim }
  }

  async recordInterrupted(deliveryId: string, number: number, error: string) {
    if (!this.attempts.some((a) => a.deliveryId === deliveryId && a.number === number))
      this.attempts.push({
        deliveryId,
        number,
        attemptedAt: DateTime.now(),
        statusCode: null,
        durationMs: 0,
        error,
      })
  }

  async insertAttempt(row: AttemptRow, tx?: Tx) {
    this.writesIn.push(tx)
    this.attempts.push(row)
  }

  async settle(id: string, number: number, settlement: Settlement, tx?: Tx) {
    this.writesIn.push(tx)
    const row = this.rows.get(id)
    if (!row || row.attemptCount !== number) return false
    row.merge({
      status: settlement.status,
      lastError: settlement.lastError,
      nextAttemptAt: settlement.nextAttemptAt
        ? DateTime.fromJSDate(settlement.nextAttemptAt)
        : null,
      claimJobId: null,
      deliveredAt: settlement.status === 'delivered' ? DateTime.now() : row.deliveredAt,
    })
    return true
  }

  async savepoint<T>(tx: Tx, work: (savepoint: Tx) => Promise<T>) {
    return work(tx)
  }

  async lock(which: DeliverySelector, tx: Tx) {
    this.writesIn.push(tx)
    return [...this.rows.values()]
      .filter((row) =>
        typeof which === 'string'
          ? row.id === which
          : row.ownerType === which.ownerType &&
            row.ownerId === String(which.ownerId) &&
            (!which.channel || row.channel === which.channel)
      )
      .map(copy)
  }

  async update(delivery: Delivery, changes: DeliveryChanges, tx?: Tx) {
    this.writesIn.push(tx)
    this.rows.get(delivery.id)!.merge(changes)
    return delivery.merge(changes)
  }

  async disable(id: string, reason: string, from: readonly DeliveryStatus[]) {
    const row = this.rows.get(id)
    if (!row || !from.includes(row.status)) return false
    row.merge({ status: 'disabled', nextAttemptAt: null, lastError: reason })
    return true
  }

  async find(id: string) {
    const row = this.rows.get(id)
    return row ? copy(row) : null
  }

  async orphans() {
    return this.orphanRows
  }

  async makeDue(id: string) {
    this.madeDue.push(id)
  }

  stuck: string[] = []
  async stuckIds() {
    return this.stuck
  }

  /** Newest first: ids were created in order, so the reverse of insertion. */
  async newest(
    limit: number,
    anyOf?: { statuses?: readonly DeliveryStatus[]; ids?: readonly string[] }
  ) {
    return [...this.rows.values()]
      .reverse()
      .filter(
        (row) => !anyOf || anyOf.statuses?.includes(row.status) || anyOf.ids?.includes(row.id)
      )
      .slice(0, limit)
  }
}

function copy(row: Delivery) {
  const fresh = new Delivery()
  fresh.merge({ ...row.$attributes })
  return fresh
}

type Sent = { name: string; data: object; startAfter?: Date; trx?: Tx }

/** The runner: records what is sent; knows `QUEUE` only. */
class FakeRunner {
  sent: Sent[] = []
  async send(name: string, data: object, options: { trx?: Tx; startAfter?: Date } = {}) {
    this.sent.push({ name, data, startAfter: options.startAfter, trx: options.trx })
    return 'job-id'
  }
  definitions() {
    return [{ name: QUEUE }]
  }
}

class FakeDeadHooks implements Pick<DeadDeliveryHooks, 'all'> {
  hooks: DeadDeliveryHook[] = []
  async all() {
    return this.hooks
  }
}

/** A unit of work whose first `refusals` runs fail before the work starts (a database outage). */
class FlakyUnitOfWork extends FakeUnitOfWork {
  constructor(public refusals = 0) {
    super()
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return super.run(async (tx) => {
      if (this.refusals-- > 0) throw new Error('connection terminated')
      return work(tx)
    })
  }
}

function setup(unitOfWork = new FlakyUnitOfWork()) {
  const store = new FakeDeliveryStore()
  const runner = new FakeRunner()
  const hooks = new FakeDeadHooks()
  const service = new DeliveryService(
    store as unknown as DeliveryStore,
    unitOfWork,
    runner as unknown as JobRunner,
    hooks as unknown as DeadDeliveryHooks
  )
  const create = (ownerId: string | number = 'o-1') =>
    service.create(
      {
        channel: 'webhook',
        ownerType: 'test',
        ownerId,
        appId: 7,
        target: 'https://hooks.example/in',
        payload: { n: 1 },
        queue: QUEUE,
      },
      FAKE_TX
    )
  /** Makes the delivery due now (a retry's time has come). */
  const due = (id: string) => store.rows.get(id)!.merge({ nextAttemptAt: DateTime.now() })
  const answer =
    (status: number, headers: SendOutcome['headers'] = {}) =>
    async (): Promise<SendOutcome> => ({ status, headers })
  return { store, unitOfWork, runner, hooks, service, create, due, answer }
}

test.group('DeliveryService (unit)', (group) => {
  const initial = {
    schedule: settings.deliveryRetrySchedule,
    cap: settings.deliveryRetryAfterMax,
  }
  group.each.setup(() => {
    settings.deliveryRetrySchedule = [5, 300, 1800]
    settings.deliveryRetryAfterMax = 86_400
    return () => {
      settings.deliveryRetrySchedule = initial.schedule
      settings.deliveryRetryAfterMax = initial.cap
    }
  })

  test('create writes the row and its first job in the caller transaction', async ({ assert }) => {
    const { store, runner, create } = setup()
    const created = await create(42)
    assert.equal(created.ownerId, '42')
    assert.match(created.messageId, /^msg_/)
    assert.equal(store.rows.get(created.id)!.status, 'pending')
    assert.deepEqual(store.writesIn, [FAKE_TX])
    assert.deepEqual(runner.sent, [
      { name: QUEUE, data: { deliveryId: created.id }, startAfter: undefined, trx: FAKE_TX },
    ])
  })

  test('2xx delivers (200 and 299); 300 and 500 are retried', async ({ assert }) => {
    for (const [status, expected] of [
      [200, 'delivered'],
      [299, 'delivered'],
      [300, 'retry'],
      [500, 'retry'],
      [199, 'retry'],
    ] as Array<[number, AttemptResult]>) {
      const { store, runner, service, create, answer } = setup()
      const { id } = await create()
      assert.equal(await service.attempt(id, answer(status)), expected, `HTTP ${status}`)
      const row = store.rows.get(id)!
      assert.equal(row.status, expected === 'delivered' ? 'delivered' : 'failed')
      assert.deepEqual(
        store.attempts.map((a) => [a.number, a.statusCode, a.error]),
        [[1, status, expected === 'delivered' ? null : `HTTP ${status}`]]
      )
      // Delivered: no job after the first; retried: one more, for later.
      assert.lengthOf(runner.sent, expected === 'delivered' ? 1 : 2)
      if (expected === 'delivered') assert.isNotNull(row.deliveredAt)
    }
  })

  test('the next try follows the schedule (±20 % jitter), in the recording transaction', async ({
    assert,
  }) => {
    const { store, runner, service, create, due, answer } = setup()
    const { id } = await create()
    for (const [tried, seconds] of [
      [1, 5],
      [2, 300],
      [3, 1800],
    ]) {
      const before = Date.now()
      assert.equal(await service.attempt(id, answer(503)), 'retry')
      const retry = runner.sent.at(-1)!
      const delay = retry.startAfter!.getTime() - before
      assert.isAtLeast(delay, seconds * 800 - 50, `after try ${tried}`)
      assert.isAtMost(delay, seconds * 1200 + 50, `after try ${tried}`)
      assert.equal(retry.trx, FAKE_TX)
      assert.equal(store.rows.get(id)!.nextAttemptAt!.toMillis(), retry.startAfter!.getTime())
      due(id)
    }
  })

  test('a failed try is not repeated before it is due; the job holding the claim takes it over', async ({
    assert,
  }) => {
    const { store, service, create, answer } = setup()
    const { id } = await create()
    let sends = 0
    const counted = async () => (sends++, { status: 200 })
    assert.equal(await service.attempt(id, answer(502)), 'retry')
    assert.equal(await service.attempt(id, counted), 'skipped')
    assert.equal(await service.attempt('not-a-uuid', counted), 'skipped')
    assert.equal(sends, 0)

    // A worker died mid-try: its job (same id) takes the claim over and logs the lost try.
    store.rows.get(id)!.merge({
      attemptCount: 2,
      roundAttempts: 2,
      claimJobId: 'job-a',
      nextAttemptAt: DateTime.now().plus({ minutes: 2 }),
    })
    assert.equal(await service.attempt(id, counted, { id: 'job-b' }), 'skipped')
    assert.equal(await service.attempt(id, counted, { id: 'job-a' }), 'delivered')
    assert.equal(sends, 1)
    assert.deepEqual(
      store.attempts.map((a) => [a.number, a.statusCode]),
      [
        [1, 502],
        [2, null],
        [3, 200],
      ]
    )
    assert.match(store.attempts[1].error!, /^interrupted/)
  })

  test('Retry-After pushes the next try later, never earlier, capped at the maximum', async ({
    assert,
  }) => {
    const { service } = setup()
    assert.equal(service.nextDelay(1, '120'), 120_000)
    assert.equal(service.nextDelay(1, ['120', '1']), 120_000)
    // Shorter than the schedule's 5 s: the schedule wins.
    assert.isAtLeast(service.nextDelay(1, '1')!, 4000)
    assert.isAtMost(service.nextDelay(1, '1')!, 6000)
    // Unreadable: the schedule.
    assert.isAtMost(service.nextDelay(1, 'soon')!, 6000)
    assert.equal(service.nextDelay(1, '86400'), 86_400_000)
    assert.equal(service.nextDelay(1, '86401'), 86_400_000)
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString()
    assert.isAtLeast(service.nextDelay(1, inAnHour)!, 3_598_000)
    assert.isAtMost(service.nextDelay(1, inAnHour)!, 3_600_000)
  })

  test('a Retry-After answer schedules its job no earlier than asked', async ({ assert }) => {
    const { runner, service, create, answer } = setup()
    const { id } = await create()
    const before = Date.now()
    assert.equal(await service.attempt(id, answer(503, { 'retry-after': '600' })), 'retry')
    const delay = runner.sent.at(-1)!.startAfter!.getTime() - before
    assert.isAtLeast(delay, 600_000)
    assert.isAtMost(delay, 600_000 + 1000)
  })

  test('410 is gone: disabled, no further job; 404 is retried', async ({ assert }) => {
    const gone = setup()
    const first = await gone.create()
    assert.equal(await gone.service.attempt(first.id, gone.answer(410)), 'gone')
    assert.equal(gone.store.rows.get(first.id)!.status, 'disabled')
    assert.isNull(gone.store.rows.get(first.id)!.nextAttemptAt)
    assert.lengthOf(gone.runner.sent, 1)

    const missing = setup()
    const second = await missing.create()
    assert.equal(await missing.service.attempt(second.id, missing.answer(404)), 'retry')
    assert.equal(missing.store.rows.get(second.id)!.status, 'failed')
  })

  test('the last scheduled retry still retries; the try after it is dead and runs the onDeliveryDead hooks', async ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = [1, 1]
    const { store, runner, hooks, service, create, due, answer } = setup()
    const seen: Array<{ status: string; lastError: string | null; tx: Tx }> = []
    hooks.hooks.push(async (delivery, tx) => {
      seen.push({ status: delivery.status, lastError: delivery.lastError, tx })
    })
    const { id } = await create()
    assert.equal(await service.attempt(id, answer(500)), 'retry')
    due(id)
    assert.equal(await service.attempt(id, answer(500)), 'retry')
    assert.lengthOf(seen, 0)
    due(id)
    assert.equal(await service.attempt(id, answer(500)), 'dead')
    const row = store.rows.get(id)!
    assert.equal(row.status, 'dead')
    assert.equal(row.attemptCount, 3)
    assert.isNull(row.nextAttemptAt)
    assert.deepEqual(seen, [{ status: 'dead', lastError: 'HTTP 500', tx: FAKE_TX }])
    // First job and two retries; none after the dead try.
    assert.lengthOf(runner.sent, 3)
  })

  test('a failing onDeliveryDead hook does not keep the dead status from being recorded, nor the other hooks from running', async ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = []
    const { store, unitOfWork, hooks, service, create, answer } = setup()
    let later = 0
    hooks.hooks.push(
      async () => {
        throw new Error('hook down')
      },
      async () => {
        later++
      }
    )
    const { id } = await create()
    assert.equal(await service.attempt(id, answer(500)), 'dead')
    assert.equal(store.rows.get(id)!.status, 'dead')
    assert.equal(later, 1)
    assert.equal(unitOfWork.rolledBack, 0)
  })

  test('a permanent outbound error is dead at once; a network error is retried', async ({
    assert,
  }) => {
    const refused = setup()
    const first = await refused.create()
    const privateAddress = async (): Promise<SendOutcome> => {
      throw new OutboundError('private_address', 'refused: 127.0.0.1')
    }
    assert.equal(await refused.service.attempt(first.id, privateAddress), 'dead')
    assert.match(refused.store.rows.get(first.id)!.lastError!, /^private_address: /)

    const down = setup()
    const second = await down.create()
    const network = async (): Promise<SendOutcome> => {
      throw new OutboundError('network', 'ECONNREFUSED')
    }
    assert.equal(await down.service.attempt(second.id, network), 'retry')
    assert.match(down.store.attempts[0].error!, /^network: /)
    assert.isNull(down.store.attempts[0].statusCode)
  })

  test('an outcome the database refuses at first is recorded on a later try of the unit of work, sent once', async ({
    assert,
  }) => {
    const { store, unitOfWork, service, create } = setup(new FlakyUnitOfWork(1))
    const { id } = await create()
    let sends = 0
    assert.equal(await service.attempt(id, async () => (sends++, { status: 200 })), 'delivered')
    assert.equal(sends, 1)
    assert.equal(unitOfWork.rolledBack, 1)
    assert.equal(store.rows.get(id)!.status, 'delivered')
    assert.lengthOf(store.attempts, 1)
  })

  test('cancel disables an open delivery and leaves a delivered one alone', async ({ assert }) => {
    const { store, service, create, answer } = setup()
    const open = await create('open')
    const done = await create('done')
    assert.equal(await service.attempt(done.id, answer(200)), 'delivered')
    await service.cancel(open.id, 'channel off')
    await service.cancel(done.id, 'channel off')
    assert.equal(store.rows.get(open.id)!.status, 'disabled')
    assert.equal(store.rows.get(open.id)!.lastError, 'channel off')
    assert.equal(await service.attempt(open.id, answer(200)), 'skipped')
    assert.equal(store.rows.get(done.id)!.status, 'delivered')
    assert.isNull(store.rows.get(done.id)!.lastError)
  })

  test('resend without a transaction opens its own: a dead delivery goes again with the same message id', async ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = []
    const { store, unitOfWork, runner, service, create, answer } = setup()
    const created = await create()
    assert.equal(await service.attempt(created.id, answer(500)), 'dead')
    const committed = unitOfWork.committed

    const [again] = await service.resend(created.id)
    assert.equal(unitOfWork.committed, committed + 1)
    assert.equal(again.status, 'pending')
    assert.equal(again.messageId, created.messageId)
    assert.equal(store.rows.get(created.id)!.roundAttempts, 0)
    assert.deepInclude(runner.sent.at(-1)!, { name: QUEUE, trx: FAKE_TX })

    let sentWith: string | undefined
    const result = await service.attempt(created.id, async (delivery) => {
      sentWith = delivery.messageId
      return { status: 204 }
    })
    assert.equal(result, 'delivered')
    assert.equal(sentWith, created.messageId)
    // The count of tries goes on: 1 dead + 1 after the resend.
    assert.equal(store.rows.get(created.id)!.attemptCount, 2)
  })

  test('resend in the caller transaction, by owner: new payload and target, same message id; nothing found, nothing sent', async ({
    assert,
  }) => {
    const { store, unitOfWork, runner, service, create, answer } = setup()
    const created = await create('owner-1')
    await service.attempt(created.id, answer(200))
    const jobs = runner.sent.length

    const resent = await service.resend({ ownerType: 'test', ownerId: 'owner-1' }, FAKE_TX, {
      payload: { again: true },
      target: 'https://hooks.example/new',
    })
    assert.equal(unitOfWork.committed, 1) // the first try's recording only
    assert.lengthOf(resent, 1)
    const row = store.rows.get(created.id)!
    assert.deepEqual(row.payload, { again: true })
    assert.equal(row.target, 'https://hooks.example/new')
    assert.equal(row.messageId, created.messageId)
    assert.lengthOf(runner.sent, jobs + 1)

    assert.deepEqual(await service.resend({ ownerType: 'test', ownerId: 'nobody' }, FAKE_TX), [])
    assert.lengthOf(runner.sent, jobs + 1)
  })

  test('sweep queues orphans again: at once unless due later and unclaimed; an unknown queue is skipped', async ({
    assert,
  }) => {
    const { store, runner, service } = setup()
    const later = new Date(Date.now() + 60_000)
    store.orphanRows = [
      { id: 'a', queue: QUEUE, nextAttemptAt: null, claimJobId: null },
      { id: 'b', queue: QUEUE, nextAttemptAt: later, claimJobId: null },
      { id: 'c', queue: QUEUE, nextAttemptAt: later, claimJobId: 'dead-job' },
      { id: 'd', queue: 'gone.queue', nextAttemptAt: null, claimJobId: null },
    ]
    assert.equal(await service.sweep(), 3)
    assert.deepEqual(store.madeDue, ['a', 'c'])
    assert.deepEqual(
      runner.sent.map((sent) => [(sent as any).data.deliveryId, sent.startAfter ?? null]),
      [
        ['a', null],
        ['b', later],
        ['c', null],
      ]
    )
  })

  test('overview: all newest first; --failed adds the stuck to failed and dead; --stuck only the stuck', async ({
    assert,
  }) => {
    settings.deliveryRetrySchedule = [1]
    const { store, service, create, due, answer } = setup()
    const delivered = await create('delivered')
    const failed = await create('failed')
    const dead = await create('dead')
    const stuck = await create('stuck')
    await service.attempt(delivered.id, answer(200))
    await service.attempt(failed.id, answer(500))
    await service.attempt(dead.id, answer(500))
    due(dead.id)
    await service.attempt(dead.id, answer(500))
    store.stuck = [stuck.id]

    const ids = (list: Delivery[]) => list.map((delivery) => delivery.id)
    const all = await service.overview()
    assert.deepEqual(ids(all.deliveries), [stuck.id, dead.id, failed.id, delivered.id])
    assert.deepEqual([...all.stuck], [stuck.id])
    assert.deepEqual(ids((await service.overview({ limit: 2 })).deliveries), [stuck.id, dead.id])
    assert.deepEqual(ids((await service.overview({ only: 'failed' })).deliveries), [
      stuck.id,
      dead.id,
      failed.id,
    ])
    assert.deepEqual(ids((await service.overview({ only: 'stuck' })).deliveries), [stuck.id])
  })
})
