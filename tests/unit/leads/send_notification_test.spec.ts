/*
 * SendNotificationTest alone, over a fake configuration store (no PostgreSQL,
 * no receiver): which channel it picks, the failures without a callback, and
 * the outbound client's SSRF refusal reported as the outcome, not thrown.
 */
import { test } from '@japa/runner'
import { settings } from '#core/settings'
import type NotificationConfig from '#leads/models/notification_config'
import type NotificationConfigStore from '#leads/stores/notification_config_store'
import SendNotificationTest from '#leads/services/send_notification_test'
import { toTestChannel } from '#leads/validators/notification_validators'
import { AGENCY, configModel } from './fixtures.js'

class FakeConfigStore {
  asked: Array<[number, number]> = []
  constructor(private stored: NotificationConfig | null) {}
  async of(appId: number, agencyId: number) {
    this.asked.push([appId, agencyId])
    return this.stored
  }
}

const sender = (stored: NotificationConfig | null) => {
  const store = new FakeConfigStore(stored)
  return { store, send: new SendNotificationTest(store as unknown as NotificationConfigStore) }
}

test.group('SendNotificationTest', (group) => {
  const initial = settings.outboundAllowPrivate
  group.each.teardown(() => {
    settings.outboundAllowPrivate = initial
  })

  test('no configuration, or none for the channel: no_webhook / no_adf_hook', async ({
    assert,
  }) => {
    const empty = sender(null)
    assert.deepEqual(await empty.send.execute(10, AGENCY, 'webhook'), {
      ok: false,
      reason: 'no_webhook',
    })
    assert.deepEqual(empty.store.asked, [[10, AGENCY.id]], 'the calling app and the agency')
    const webhookOnly = sender(configModel(1, 10, { webhookCallback: 'https://hooks.example/a' }))
    assert.deepEqual(await webhookOnly.send.execute(10, AGENCY, 'adfHook'), {
      ok: false,
      reason: 'no_adf_hook',
    })
    const adfOnly = sender(configModel(1, 10, { adfHookCallback: 'https://hooks.example/adf' }))
    assert.deepEqual(await adfOnly.send.execute(10, AGENCY, 'webhook'), {
      ok: false,
      reason: 'no_webhook',
    })
  })

  test('a refused callback (private address) is the outcome: Estado null, the reason in Error', async ({
    assert,
  }) => {
    settings.outboundAllowPrivate = false
    const { send } = sender(
      configModel(1, 10, { webhookCallback: 'http://127.0.0.1:9/hook', webhookHeaders: [] })
    )
    const result = await send.execute(10, AGENCY, 'webhook')
    assert.isTrue(result.ok)
    if (!result.ok) return
    assert.isNull(result.value.status)
    assert.match(result.value.error!, /^private_address/)
    assert.isAtLeast(result.value.durationMs, 0)
  })

  test('canal: the webhook by default, the ADF hook by its member name', ({ assert }) => {
    assert.equal(toTestChannel({}), 'webhook')
    assert.equal(toTestChannel({ canal: 'PublicacionConsultadaWebHook' }), 'webhook')
    assert.equal(toTestChannel({ canal: 'PublicacionConsultadaAdfHook' }), 'adfHook')
  })
})
