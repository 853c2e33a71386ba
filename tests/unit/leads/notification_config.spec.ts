/*
 * The notification configuration alone: wire → settings (the validator's
 * mapping) and SaveNotificationConfig over a fake store; ReassignOperator's
 * handover over fake stores. No PostgreSQL.
 */
import { test } from '@japa/runner'
import { openSecret, sealSecret } from '#core/outbound/signer'
import type { Tx } from '#core/database/unit_of_work'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type NotificationConfig from '#leads/models/notification_config'
import SaveNotificationConfig from '#leads/services/save_notification_config'
import ReassignOperator from '#leads/services/reassign_operator'
import type InquiryStore from '#leads/stores/inquiry_store'
import type NotificationConfigStore from '#leads/stores/notification_config_store'
import {
  toNotificationSettings,
  type NotificationConfigInput,
} from '#leads/validators/notification_validators'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import { configModel } from './fixtures.js'

const WEBHOOK = { Callback: 'https://hooks.example/leads' }

/** One stored configuration, handed out locked and saved back. */
class FakeConfigStore {
  locked: Array<{ appId: number; agencyId: number; tx: Tx }> = []
  saved: Array<{ config: NotificationConfig; tx: Tx | undefined }> = []
  owners: Array<[number, number, number, Tx | undefined]> = []
  constructor(public stored = configModel(1, 10)) {}
  async lockForReplace(appId: number, agencyId: number, tx: Tx) {
    this.locked.push({ appId, agencyId, tx })
    return this.stored
  }
  async save(config: NotificationConfig, tx?: Tx) {
    this.saved.push({ config, tx })
    return config
  }
  async moveOwner(agencyId: number, from: number, to: number, tx?: Tx) {
    this.owners.push([agencyId, from, to, tx])
  }
}

function saver(store = new FakeConfigStore()) {
  const unitOfWork = new FakeUnitOfWork()
  const action = new SaveNotificationConfig(
    store as unknown as NotificationConfigStore,
    unitOfWork as any
  )
  return { action, store, unitOfWork }
}

const save = (input: NotificationConfigInput, store?: FakeConfigStore) => {
  const { action } = saver(store)
  return action.execute(10, 7, toNotificationSettings(input))
}

test.group('Notification settings (wire → code)', () => {
  test('Activo defaults to true; false stays false; an absent or null channel is null', ({
    assert,
  }) => {
    const settings = toNotificationSettings({
      PublicacionConsultadaWebHook: WEBHOOK,
      PublicacionConsultadaAdfHook: { Callback: 'https://hooks.example/adf', Activo: false },
      PublicacionConsultadaAdfMail: null,
    })
    assert.isTrue(settings.webhook?.active)
    assert.isFalse(settings.adfHook?.active)
    assert.isNull(settings.adfMail)
    assert.isNull(settings.htmlMail)
  })

  test("Secret: '' drops the stored one (null), null or absent keeps it (undefined), a value is kept as given", ({
    assert,
  }) => {
    const secret = (Secret: string | null | undefined) =>
      toNotificationSettings({ PublicacionConsultadaWebHook: { ...WEBHOOK, Secret } }).webhook
        ?.secret
    assert.isNull(secret(''))
    assert.isUndefined(secret(null))
    assert.isUndefined(secret(undefined))
    assert.equal(secret('0123456789abcdef'), '0123456789abcdef')
  })

  test('custom headers keep their slot (HeaderCustom02 alone is the second); e-mails are lower-cased, BCC split without repeats', ({
    assert,
  }) => {
    const settings = toNotificationSettings({
      PublicacionConsultadaWebHook: { ...WEBHOOK, HeaderCustom02: { Name: 'X-A', Value: '1' } },
      PublicacionConsultadaAdfMail: { Email: 'CRM@Example.com' },
      PublicacionConsultadaHtmlMail: { EmailsCCO: 'a@x.com; B@x.com, a@x.com' },
    })
    assert.deepEqual(settings.webhook?.headers, [null, { name: 'X-A', value: '1' }, null])
    assert.equal(settings.adfMail?.email, 'crm@example.com')
    assert.deepEqual(settings.htmlMail?.bcc, ['a@x.com', 'b@x.com'])
  })
})

test.group('SaveNotificationConfig', () => {
  test('replaces every channel in one unit of work on the locked row; absent channels are switched off and emptied', async ({
    assert,
  }) => {
    const store = new FakeConfigStore(
      configModel(1, 10, {
        adfMailActive: true,
        adfMailEmail: 'old@example.com',
        htmlMailActive: true,
        htmlMailBcc: ['old@example.com'],
      })
    )
    const { action, unitOfWork } = saver(store)
    const saved = await action.execute(
      10,
      7,
      toNotificationSettings({ PublicacionConsultadaWebHook: WEBHOOK })
    )
    assert.deepEqual(store.locked, [{ appId: 10, agencyId: 7, tx: FAKE_TX }])
    assert.equal(store.saved[0].tx, FAKE_TX)
    assert.equal(unitOfWork.committed, 1)
    assert.include(saved, {
      webhookActive: true,
      webhookCallback: WEBHOOK.Callback,
      adfMailActive: false,
      adfMailEmail: null,
      htmlMailActive: false,
    })
    assert.deepEqual(saved.htmlMailBcc, [])
  })

  test('the Secret is sealed at rest, kept when not given, dropped by an empty one or with the webhook', async ({
    assert,
  }) => {
    const store = new FakeConfigStore()
    const sealed = await save(
      { PublicacionConsultadaWebHook: { ...WEBHOOK, Secret: '0123456789abcdef' } },
      store
    )
    assert.notEqual(sealed.webhookSecret, '0123456789abcdef')
    assert.equal(openSecret(sealed.webhookSecret), '0123456789abcdef')

    const before = sealed.webhookSecret
    assert.equal(
      (await save({ PublicacionConsultadaWebHook: WEBHOOK }, store)).webhookSecret,
      before
    )
    assert.isNull(
      (await save({ PublicacionConsultadaWebHook: { ...WEBHOOK, Secret: '' } }, store))
        .webhookSecret
    )

    store.stored.webhookSecret = sealSecret('another secret 16')
    assert.isNull((await save({}, store)).webhookSecret)
  })
})

class FakeInquiries {
  moved: Array<[number, number, { id: number; email?: string }, Tx | undefined]> = []
  async moveOperator(agencyId: number, from: number, to: { id: number; email?: string }, tx?: Tx) {
    this.moved.push([agencyId, from, to, tx])
  }
}

test.group('ReassignOperator (the leads handover of desasociar)', () => {
  test('inquiries and configurations move to the receiving member with its e-mail, in the caller’s transaction', async ({
    assert,
  }) => {
    const inquiries = new FakeInquiries()
    const configs = new FakeConfigStore()
    const agencies = {
      memberById: async (_agency: number, id: number) =>
        id === 3 ? { id: 3, email: 'bruno@agencia.example' } : null,
      operators: async () => new Map([[4, { id: 4, email: 'ex@agencia.example' }]]),
    }
    const action = new ReassignOperator(
      agencies as unknown as AgencyDirectory,
      inquiries as unknown as InquiryStore,
      configs as unknown as NotificationConfigStore
    )
    assert.isTrue((await action.execute(7, 2, 3, FAKE_TX)).ok)
    assert.deepEqual(inquiries.moved, [[7, 2, { id: 3, email: 'bruno@agencia.example' }, FAKE_TX]])
    assert.deepEqual(configs.owners, [[7, 2, 3, FAKE_TX]])

    // A receiver that is no longer a member: its e-mail is read among all operators.
    await action.execute(7, 2, 4, FAKE_TX)
    assert.deepEqual(inquiries.moved[1][2], { id: 4, email: 'ex@agencia.example' })
  })
})
