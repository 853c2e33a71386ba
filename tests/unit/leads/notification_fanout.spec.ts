import { test } from '@japa/runner'
import {
  CHANNELS,
  planDeliveries,
  webhookBody,
  type FanoutContext,
} from '#leads/services/notification_fanout'
import { configModel, inquiryModel } from './fixtures.js'

function context(): FanoutContext {
  return {
    inquiry: inquiryModel(),
    agency: { adminMail: 'admin@agencia.example', tradeName: 'Agencia' },
    operator: null,
  }
}

const config = configModel

test.group('Notification fanout', () => {
  test('no configuration, or channels off or without a target: no delivery', ({ assert }) => {
    assert.deepEqual(planDeliveries(context(), []), [])
    assert.deepEqual(planDeliveries(context(), [config(1, 10)]), [])
    // Active without a target, and a target while inactive, both send nothing.
    const halfSet = config(1, 10, {
      webhookActive: true,
      adfHookActive: true,
      adfMailActive: true,
      htmlMailActive: true,
    })
    const inactive = config(2, 11, {
      webhookCallback: 'https://hooks.example/w',
      adfHookCallback: 'https://hooks.example/a',
      adfMailEmail: 'adf@example.com',
      htmlMailBcc: ['ventas@example.com'],
    })
    assert.deepEqual(planDeliveries(context(), [halfSet, inactive]), [])
  })

  test('one delivery per active channel of each configuration, in channel order', ({ assert }) => {
    const all = config(1, 10, {
      webhookCallback: 'https://hooks.example/w',
      webhookActive: true,
      adfHookCallback: 'https://hooks.example/a',
      adfHookActive: true,
      adfMailEmail: 'adf@example.com',
      adfMailActive: true,
      htmlMailBcc: ['ventas@example.com', 'jefe@example.com'],
      htmlMailActive: true,
    })
    const webhookOnly = config(2, 20, {
      webhookCallback: 'https://other.example/w',
      webhookActive: true,
    })
    const planned = planDeliveries(context(), [all, webhookOnly])
    assert.deepEqual(
      planned.map((delivery) => [
        delivery.appId,
        delivery.channel,
        delivery.queue,
        delivery.target,
      ]),
      [
        [10, 'webhook', CHANNELS.webhook.queue, 'https://hooks.example/w'],
        [10, 'adfHook', CHANNELS.adfHook.queue, 'https://hooks.example/a'],
        [10, 'adfMail', CHANNELS.adfMail.queue, 'adf@example.com'],
        [10, 'htmlMail', CHANNELS.htmlMail.queue, 'ventas@example.com, jefe@example.com'],
        [20, 'webhook', CHANNELS.webhook.queue, 'https://other.example/w'],
      ]
    )
    // The contents are rendered once: every retry and every channel sends the same bytes.
    assert.equal(planned[0].payload.body, webhookBody(context()).body)
    assert.equal(planned[1].payload.xml, planned[2].payload.xml)
    assert.match(String(planned[1].payload.xml), /<adf>/)
    assert.deepEqual(planned[3].payload.bcc, ['ventas@example.com', 'jefe@example.com'])
    assert.deepEqual(
      planned.map((delivery) => delivery.payload.configId),
      [1, 1, 1, 1, 2]
    )
  })

  test('the recorded target of a long BCC list stops at 1024 characters', ({ assert }) => {
    const bcc = (length: number) => {
      // Addresses joined by ", ": pad the last one to reach the exact length.
      const first = 'a@example.com'
      return [first, `${'b'.repeat(length - first.length - 2 - '@example.com'.length)}@example.com`]
    }
    const plan = (list: string[]) =>
      planDeliveries(context(), [config(1, 10, { htmlMailBcc: list, htmlMailActive: true })])[0]
    const exact = plan(bcc(1024))
    assert.lengthOf(exact.target, 1024)
    assert.notMatch(exact.target, /\.\.\.$/)
    const over = plan(bcc(1025))
    assert.lengthOf(over.target, 1024)
    assert.match(over.target, /\.\.\.$/)
    // The mail still goes to every address.
    assert.deepEqual(over.payload.bcc, bcc(1025))
  })
})
