import { test } from '@japa/runner'
import { setTimeout as sleep } from 'node:timers/promises'
import { SerialByKey } from '#core/serial_by_key'

test.group('SerialByKey', () => {
  test('tasks of one key run one after another, in order, whatever the others do', async ({
    assert,
  }) => {
    const serial = new SerialByKey()
    const log: string[] = []
    const task =
      (name: string, ms: number, fails = false) =>
      async () => {
        log.push(`${name} start`)
        await sleep(ms)
        log.push(`${name} end`)
        if (fails) throw new Error(name)
        return name
      }
    const a1 = serial.run('a', task('a1', 30, true))
    const a2 = serial.run('a', task('a2', 5))
    const b1 = serial.run('b', task('b1', 10))
    await assert.rejects(() => a1, 'a1')
    assert.equal(await a2, 'a2')
    assert.equal(await b1, 'b1')
    // b1 ran beside a1; a2 waited for a1 even though a1 failed.
    assert.deepEqual(log, ['a1 start', 'b1 start', 'b1 end', 'a1 end', 'a2 start', 'a2 end'])
  })

  test('forgets a key once its queue is empty', async ({ assert }) => {
    const serial = new SerialByKey()
    await Promise.all([serial.run('a', async () => 1), serial.run('a', async () => 2)])
    await sleep(0)
    assert.equal(serial.size, 0)
  })

  test('waiting counts the tasks of a key queued behind the running one', async ({ assert }) => {
    const serial = new SerialByKey()
    const seen: number[] = []
    const task = () => async () => {
      await sleep(5)
      seen.push(serial.waiting('a'))
    }
    assert.equal(serial.waiting('a'), 0)
    await Promise.all([
      serial.run('a', task()),
      serial.run('a', task()),
      serial.run('a', task()),
      serial.run('b', async () => seen.push(serial.waiting('b'))),
    ])
    assert.deepEqual(seen, [0, 2, 1, 0])
    await sleep(0)
    assert.equal(serial.waiting('a'), 0)
    assert.equal(serial.size, 0)
  })
})
