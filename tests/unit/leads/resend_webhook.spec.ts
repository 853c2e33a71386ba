/*
 * ResendWebhook alone (docs/decisions/leads.md, Leads: "Resend", "Resend window"):
 * fakes of the reader, the configuration and delivery stores, no PostgreSQL.
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { fail } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import type { DeliveryService, NewDelivery, ResendOptions } from '#core/outbound/deliveries'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type Inquiry from '#leads/models/inquiry'
import type NotificationConfig from '#leads/models/notification_config'
import type InquiryReader from '#leads/services/inquiry_reader'
import type { Audience } from '#leads/services/inquiry_reader'
import ResendWebhook from '#leads/services/resend_webhook'
import type NotificationConfigStore from '#leads/stores/notification_config_store'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import { AGENCY, configModel, inquiryModel } from './fixtures.js'

const APP = 10

const inquiry = (fields: Partial<Inquiry> = {}) =>
  inquiryModel({
    id: 42,
    sid: 'abc23xyz45',
    agencyId: AGENCY.id,
    appId: APP,
    operatorId: null,
    receivedAt: DateTime.now().minus({ days: 1 }),
    resendOpen: true,
    resendClosesAt: DateTime.now().plus({ days: 6 }),
    ...fields,
  })

const config = (fields: Partial<NotificationConfig> = {}) =>
  configModel(3, APP, {
    agencyId: AGENCY.id,
    webhookActive: true,
    webhookCallback: 'https://hooks.example/leads',
    ...fields,
  })

class FakeReader {
  asked: Audience[] = []
  constructor(public found: Inquiry | null) {}
  async find(audience: Audience) {
    this.asked.push(audience)
    return this.found
  }
}

class FakeConfigs {
  constructor(public stored: NotificationConfig | null) {}
  async of() {
    return this.stored
  }
}

class FakeDeliveries {
  /** Deliveries the inquiry already has, by channel. */
  existing = new Map<string, { id: string }>()
  asked: Array<{ ownerType: string; ownerId: string | number; channel: string; appId: number }> = []
  async latest(owner: {
    ownerType: string
    ownerId: string | number
    channel: string
    appId: number
  }) {
    this.asked.push(owner)
    return this.existing.get(owner.channel) ?? null
  }
  resent: Array<{ id: string; tx: Tx; options: ResendOptions }> = []
  created: Array<NewDelivery & { tx: Tx }> = []
  async resend(id: string, tx: Tx, options: ResendOptions) {
    this.resent.push({ id, tx, options })
    return []
  }
  async create(input: NewDelivery, tx: Tx) {
    this.created.push({ ...input, tx })
  }
}

class FakeAgencies {
  async operators() {
    return new Map()
  }
}

function world(found: Inquiry | null = inquiry(), stored: NotificationConfig | null = config()) {
  const fakes = {
    reader: new FakeReader(found),
    configs: new FakeConfigs(stored),
    deliveries: new FakeDeliveries(),
    unitOfWork: new FakeUnitOfWork(),
  }
  const action = new ResendWebhook(
    fakes.reader as unknown as InquiryReader,
    new FakeAgencies() as unknown as AgencyDirectory,
    fakes.deliveries as unknown as DeliveryService,
    fakes.configs as unknown as NotificationConfigStore,
    fakes.unitOfWork as any
  )
  return { ...fakes, action }
}

test.group('ResendWebhook', () => {
  test('an inquiry the app cannot see is inquiry_not_found, asked with the agency’s audience', async ({
    assert,
  }) => {
    const { action, reader, deliveries } = world(null)
    assert.deepEqual(await action.execute(APP, AGENCY, 'abc23xyz45'), fail('inquiry_not_found'))
    assert.deepEqual(reader.asked, [{ appId: APP, agencyId: AGENCY.id, receivesOtherLeads: true }])
    assert.lengthOf(deliveries.resent, 0)
  })

  test('the window: open until resend_closes_at; closed by the job’s flag or by the time alone', async ({
    assert,
  }) => {
    const open = world(inquiry({ resendClosesAt: DateTime.now().plus({ seconds: 30 }) }))
    assert.isTrue((await open.action.execute(APP, AGENCY, 'abc23xyz45')).ok)

    const past = world(inquiry({ resendClosesAt: DateTime.now().minus({ seconds: 1 }) }))
    assert.deepEqual(
      await past.action.execute(APP, AGENCY, 'abc23xyz45'),
      fail('resend_window_closed')
    )

    // The hourly job cleared the flag: closed even if the instant were still ahead.
    const flagged = world(inquiry({ resendOpen: false }))
    assert.deepEqual(
      await flagged.action.execute(APP, AGENCY, 'abc23xyz45'),
      fail('resend_window_closed')
    )
    assert.equal(past.unitOfWork.committed + flagged.unitOfWork.committed, 0)
  })

  test('no configuration, a webhook switched off, or one without Callback: no_active_webhook', async ({
    assert,
  }) => {
    for (const stored of [
      null,
      config({ webhookActive: false }),
      config({ webhookCallback: null }),
    ]) {
      const { action, deliveries } = world(inquiry(), stored)
      assert.deepEqual(await action.execute(APP, AGENCY, 'abc23xyz45'), fail('no_active_webhook'))
      assert.lengthOf(deliveries.resent, 0)
      assert.lengthOf(deliveries.created, 0)
    }
  })

  test('the existing webhook delivery goes again with the Reenvio payload and the current Callback', async ({
    assert,
  }) => {
    const { action, deliveries, unitOfWork } = world()
    deliveries.existing.set('webhook', { id: 'd-1' })
    const result = await action.execute(APP, AGENCY, 'abc23xyz45')
    assert.isTrue(result.ok)
    const { callback, payload } = result.ok ? result.value : ({} as any)
    assert.equal(callback, 'https://hooks.example/leads')
    assert.include(payload, { Tipo: 'PublicacionConsultada', Reenvio: true })
    assert.lengthOf(deliveries.resent, 1)
    const [resent] = deliveries.resent
    assert.equal(resent.id, 'd-1')
    assert.equal(resent.tx, FAKE_TX)
    assert.equal(resent.options.target, 'https://hooks.example/leads')
    assert.deepEqual(resent.options.payload, { configId: 3, body: JSON.stringify(payload) })
    assert.lengthOf(deliveries.created, 0)
    assert.equal(unitOfWork.committed, 1)
    // The inquiry's own delivery for this app, on this channel.
    assert.deepEqual(deliveries.asked[0], {
      ownerType: 'inquiry',
      ownerId: 42,
      channel: 'webhook',
      appId: APP,
    })
  })

  test('an inquiry that never had a webhook delivery gets a new one with its own message id', async ({
    assert,
  }) => {
    const { action, deliveries } = world()
    await action.execute(APP, AGENCY, 'abc23xyz45')
    assert.lengthOf(deliveries.created, 1)
    assert.include(deliveries.created[0], {
      channel: 'webhook',
      ownerType: 'inquiry',
      appId: APP,
      target: 'https://hooks.example/leads',
      queue: 'leads.webhook',
      messageId: 'msg_abc23xyz45',
    })
  })

  test('the ADF hook goes again with status="resend" only when it is active with a Callback', async ({
    assert,
  }) => {
    const active = world(
      inquiry(),
      config({ adfHookActive: true, adfHookCallback: 'https://hooks.example/adf' })
    )
    active.deliveries.existing.set('adfHook', { id: 'd-adf' })
    await active.action.execute(APP, AGENCY, 'abc23xyz45')
    const adf = active.deliveries.resent.find((resent) => resent.id === 'd-adf')!
    assert.equal(adf.options.target, 'https://hooks.example/adf')
    assert.include((adf.options.payload as { xml: string }).xml, 'status="resend"')

    const inactive = world(
      inquiry(),
      config({ adfHookActive: false, adfHookCallback: 'https://hooks.example/adf' })
    )
    await inactive.action.execute(APP, AGENCY, 'abc23xyz45')
    assert.deepEqual(
      inactive.deliveries.created.map((delivery) => delivery.channel),
      ['webhook']
    )
  })
})
