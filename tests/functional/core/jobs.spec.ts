import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { until } from '#tests/helpers/until'

/** A handler recording what it ran, for the runner's own tests. */
const ran: Array<{ marker: string; at: number }> = []
class RecordingHandler {
  async handle(data: { marker: string }) {
    ran.push({ marker: data.marker, at: Date.now() })
  }
}

/** Whether `check` came to hold within `timeoutMs`. */
async function within(check: () => boolean, timeoutMs: number) {
  return until(
    async () => check(),
    (held) => held,
    timeoutMs
  )
}

test.group('Job runner', (group) => {
  let runner: JobRunner
  group.setup(async () => {
    runner = await app.container.make(JobRunner)
    runner.register({ name: 'test.record', handler: async () => ({ default: RecordingHandler }) })
    await runner.work({ work: ['test.record'] })
  })

  test('a job sent in a committed transaction runs within a second', async ({ assert }) => {
    const marker = `commit-${Date.now()}`
    const sentAt = Date.now()
    await db.transaction(async (trx) => {
      await runner.send('test.record', { marker }, { trx })
    })
    assert.isTrue(
      await within(() => ran.some((r) => r.marker === marker), 1000),
      'job did not run within 1 s'
    )
    assert.isBelow(ran.find((r) => r.marker === marker)!.at - sentAt, 1000)
  })

  test('a job sent in a rolled-back transaction never runs', async ({ assert }) => {
    const marker = `rollback-${Date.now()}`
    const trx = await db.transaction()
    await runner.send('test.record', { marker }, { trx })
    await trx.rollback()
    // A committed job sent afterwards runs; the rolled-back one must not have.
    const after = `after-${Date.now()}`
    await runner.send('test.record', { marker: after })
    assert.isTrue(await within(() => ran.some((r) => r.marker === after), 2000))
    assert.isFalse(ran.some((r) => r.marker === marker))
  })

  test('jobs sent together to a one-at-a-time queue run back to back, not a poll apart', async ({
    assert,
  }) => {
    // One lane of one job and a 30 s backstop poll: the three jobs share one NOTIFY, so without
    // the runner waking the queue after a full batch the second would wait for the poll.
    runner.register({
      name: 'test.one-at-a-time',
      work: { batchSize: 1, localConcurrency: 1, notifyPollingIntervalSeconds: 30 },
      handler: async () => ({ default: RecordingHandler }),
    })
    await runner.work({ work: ['test.one-at-a-time'] })
    const markers = [1, 2, 3].map((i) => `lane-${i}-${Date.now()}`)
    await db.transaction(async (trx) => {
      for (const marker of markers) await runner.send('test.one-at-a-time', { marker }, { trx })
    })
    const allRan = await until(
      async () => markers.every((m) => ran.some((r) => r.marker === m)),
      (done) => done,
      5000
    )
    assert.isTrue(allRan, 'the three jobs did not all run within 5 s')
  })

  test('unknown queues are refused', async ({ assert }) => {
    await assert.rejects(() => runner.send('no.such.queue', {}), /Unknown queue/)
    await assert.rejects(() => runner.runNow('no.such.queue'), /Unknown queue/)
  })

  test('runNow runs the handler in this process', async ({ assert }) => {
    await runner.runNow('test.record', { marker: 'now' })
    assert.isTrue(ran.some((r) => r.marker === 'now'))
  })

  test('a handler warms up once when its queue starts being worked, before its first job; a failed warm-up does not stop the queue', async ({
    assert,
  }) => {
    const events: string[] = []
    class WarmHandler {
      static async warmUp() {
        events.push('warm-up')
      }
      async handle(data: { marker: string }) {
        events.push(data.marker)
      }
    }
    class BrokenWarmUpHandler {
      static async warmUp() {
        throw new Error('codec missing')
      }
      async handle(data: { marker: string }) {
        events.push(data.marker)
      }
    }
    runner.register(
      { name: 'test.warm', handler: async () => ({ default: WarmHandler }) },
      { name: 'test.warm.broken', handler: async () => ({ default: BrokenWarmUpHandler }) }
    )
    await runner.send('test.warm', { marker: 'first job' })
    await runner.work({ work: ['test.warm', 'test.warm.broken'] })
    await runner.work({ work: ['test.warm'] })
    await runner.send('test.warm.broken', { marker: 'after a broken warm-up' })
    assert.isTrue(
      await within(
        () => events.includes('first job') && events.includes('after a broken warm-up'),
        5000
      ),
      `jobs did not run: ${events.join(', ')}`
    )
    assert.deepEqual(
      events.filter((event) => event !== 'after a broken warm-up'),
      ['warm-up', 'first job']
    )
  })
})
