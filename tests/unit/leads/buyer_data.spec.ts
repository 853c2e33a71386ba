/*
 * BuyerData.forget with fakes (docs/design.md §16): every copy is reached
 * through its owner's service, and each app is told only the inquiries it
 * received.
 */
import { test } from '@japa/runner'
import { mkdtemp, readdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FAKE_TX } from '#tests/helpers/fakes'
import type { DeliveryService } from '#core/outbound/deliveries'
import type Idempotency from '#core/http/idempotency'
import { MailFiles, messageIdOf } from '#core/mail/mail_files'
import type AppEvents from '#apps/services/app_events'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type InquiryStore from '#leads/stores/inquiry_store'
import type { BuyerInquiry } from '#leads/stores/inquiry_store'
import BuyerData from '#leads/services/buyer_data'

const row = (id: number, fields: Partial<BuyerInquiry> = {}): BuyerInquiry => ({
  id,
  sid: `s${id}`,
  agencyId: 3,
  appId: 10,
  sourceAppId: 10,
  kind: 'listing',
  ...fields,
})

function world(erased: BuyerInquiry[]) {
  const calls: Record<string, unknown[]> = {
    events: [],
    emitted: [],
    idempotency: [],
    deliveries: [],
  }
  const inquiries = { eraseBuyer: async () => erased } as unknown as InquiryStore
  const deliveries = {
    forget: async (which: unknown) => {
      calls.deliveries.push(which)
      return [
        { id: 'd1', appId: 10, channel: 'webhook', ownerId: '1', mailMessageId: '<delivery-d1@h>' },
        {
          id: 'd2',
          appId: 10,
          channel: 'htmlMail',
          ownerId: '1',
          mailMessageId: '<delivery-d2@h>',
        },
        { id: 'd3', appId: 30, channel: 'adfMail', ownerId: '2', mailMessageId: '<delivery-d3@h>' },
      ]
    },
  } as unknown as DeliveryService
  const idempotency = {
    forget: async (sids: string[]) => {
      calls.idempotency.push(sids)
      return 0
    },
  } as unknown as Idempotency
  const appEvents = {
    forgetAbout: async (hrefs: string[]) => {
      calls.events.push(hrefs)
      return [{ appId: 40, href: '/v3/consultas/admin@agencia.example/s2' }]
    },
    emit: async (appId: number, topic: string, event: any) => {
      calls.emitted.push({ appId, topic, event })
      return null
    },
  } as unknown as AppEvents
  const agencies = {
    admin: async () => ({ email: 'admin@agencia.example' }),
    appsReceivingOtherLeads: async () => [50],
  } as unknown as AgencyDirectory
  return {
    calls,
    data: new BuyerData(inquiries, deliveries, idempotency, appEvents, agencies),
  }
}

test.group('BuyerData.forget', () => {
  test('reaches every copy and tells each app only what it received', async ({ assert }) => {
    const { calls, data } = world([
      row(1),
      row(2, { appId: null, sourceAppId: 20, kind: 'catalog' }),
    ])
    const outcome = await data.forget([1, 2], FAKE_TX)
    const one = '/v3/consultas/admin@agencia.example/s1'
    const two = '/v3/consultas/admin@agencia.example/s2'
    assert.deepEqual(calls.deliveries, [{ ownerType: 'inquiry', ownerIds: [1, 2] }])
    assert.deepEqual(calls.events, [[one, two]])
    assert.deepEqual(calls.idempotency, [['s1', 's2']])
    // Mails only: their files go after the commit.
    assert.deepEqual(outcome.mailMessageIds, ['<delivery-d2@h>', '<delivery-d3@h>'])
    // 10 published and sent #1; 20 sent #2, 50 gets the agency's other leads, 30 had a delivery of it, 40 an event.
    const told = Object.fromEntries(
      (calls.emitted as any[]).map((entry) => [entry.appId, entry.event.Datos.Consultas])
    )
    assert.deepEqual(told, { 10: [one], 20: [two], 30: [two], 40: [two], 50: [two] })
    for (const entry of calls.emitted as any[]) {
      assert.equal(entry.topic, 'consultas')
      assert.equal(entry.event.Tipo, 'InteresadoSuprimido')
      assert.equal(entry.event.Recurso.href, '/v3/consultas/admin@agencia.example')
    }
  })

  test('nothing erased (already suppressed): nothing else is touched, nobody told', async ({
    assert,
  }) => {
    const { calls, data } = world([])
    const outcome = await data.forget([1], FAKE_TX)
    assert.deepEqual(outcome.erased, [])
    assert.deepEqual(calls.deliveries, [])
    assert.deepEqual(calls.emitted, [])
  })
})

test.group('MailFiles (DATA_DIR/mail)', () => {
  test('deletes exactly the files whose Message-ID is named', async ({ assert }) => {
    const directory = await mkdtemp(join(tmpdir(), 'mail-'))
    const mail = (id: string) =>
      `From: a@example.com\r\nTo: b@example.com\r\nMessage-ID:\r\n ${id}\r\nSubject: x\r\n\r\nMessage-ID: <body@not-a-header>\r\n`
    await writeFile(join(directory, 'one.eml'), mail('<delivery-1@h>'))
    await writeFile(join(directory, 'two.eml'), mail('<delivery-2@h>'))
    await writeFile(join(directory, 'body.eml'), mail('<delivery-3@h>'))
    await writeFile(join(directory, 'notes.txt'), mail('<delivery-1@h>'))
    assert.equal(messageIdOf(mail('<delivery-1@h>')), '<delivery-1@h>')
    const files = new MailFiles(directory)
    assert.equal(await files.forget(['<delivery-1@h>', '<body@not-a-header>']), 1)
    assert.sameMembers(await readdir(directory), ['two.eml', 'body.eml', 'notes.txt'])
    assert.equal(await new MailFiles(join(directory, 'missing')).forget(['<x@h>']), 0)
  })
})
