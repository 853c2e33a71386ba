/*
 * InquiryEvents alone (docs/design.md §14): ConsultaRecibida to the inquiry's
 * audience, EntregaFallida to the app of a dead lead delivery — fakes only.
 */
import { test } from '@japa/runner'
import type { Tx } from '#core/database/unit_of_work'
import type { Delivery } from '#core/outbound/deliveries'
import type AppEvents from '#apps/services/app_events'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type { ReceivedInquiry } from '#leads/models/inquiry'
import InquiryEvents from '#leads/services/inquiry_events'
import type InquiryStore from '#leads/stores/inquiry_store'
import { FAKE_TX } from '#tests/helpers/fakes'
import { AGENCY, inquiryModel } from './fixtures.js'

class FakeAppEvents {
  emitted: Array<{ appIds: number[]; topic: string; input: any; tx: Tx }> = []
  async emitEach(appIds: number[], topic: string, input: unknown, tx: Tx) {
    this.emitted.push({ appIds, topic, input, tx })
  }
  async emit(appId: number, topic: string, input: unknown, tx: Tx) {
    this.emitted.push({ appIds: [appId], topic, input, tx })
  }
}

function world(options: { inquiry?: boolean; admin?: boolean } = {}) {
  const appEvents = new FakeAppEvents()
  const stored = inquiryModel({ id: 42, agencyId: AGENCY.id })
  const events = new InquiryEvents(
    appEvents as unknown as AppEvents,
    {
      admin: async () => (options.admin === false ? null : { id: 1, email: AGENCY.adminMail }),
    } as unknown as AgencyDirectory,
    {
      find: async () => (options.inquiry === false ? null : stored),
    } as unknown as InquiryStore
  )
  return { events, appEvents }
}

const dead = (fields: Partial<Delivery> = {}) =>
  ({
    ownerType: 'inquiry',
    ownerId: '42',
    appId: 10,
    channel: 'adfHook',
    lastError: 'HTTP 500',
    ...fields,
  }) as Delivery

test.group('InquiryEvents', () => {
  test('ConsultaRecibida goes to every app of the audience, in the intake’s transaction', async ({
    assert,
  }) => {
    const { events, appEvents } = world()
    const inquiry = inquiryModel({ sid: 'abc23xyz45' }) as unknown as ReceivedInquiry
    await events.received(inquiry, [10, 11], AGENCY.adminMail, FAKE_TX)
    const [event] = appEvents.emitted
    assert.deepEqual(event.appIds, [10, 11])
    assert.equal(event.topic, 'consultas')
    assert.equal(event.tx, FAKE_TX)
    assert.equal(event.input.Tipo, 'ConsultaRecibida')
    assert.equal(event.input.Recurso.href, `/v3/consultas/${AGENCY.adminMail}/abc23xyz45`)
  })

  test('EntregaFallida names the channel in wire words and the last error, to the delivery’s app', async ({
    assert,
  }) => {
    const { events, appEvents } = world()
    await events.deliveryDead(dead(), FAKE_TX)
    const [event] = appEvents.emitted
    assert.deepEqual(event.appIds, [10])
    assert.equal(event.topic, 'entregas')
    assert.deepEqual(event.input.Datos, {
      Canal: 'PublicacionConsultadaAdfHook',
      UltimoError: 'HTTP 500',
    })
    assert.match(event.input.Recurso.href, /\/entregas$/)
  })

  test('no event for another module’s delivery, a vanished inquiry or an agency without administrator', async ({
    assert,
  }) => {
    const other = world()
    await other.events.deliveryDead(dead({ ownerType: 'app' }), FAKE_TX)
    const vanished = world({ inquiry: false })
    await vanished.events.deliveryDead(dead(), FAKE_TX)
    const headless = world({ admin: false })
    await headless.events.deliveryDead(dead(), FAKE_TX)
    assert.lengthOf(
      [...other.appEvents.emitted, ...vanished.appEvents.emitted, ...headless.appEvents.emitted],
      0
    )
  })
})
