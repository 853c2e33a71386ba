/*
 * ReceiveInquiry alone: every rule of the intake with hand-rolled fakes of its
 * collaborators, no PostgreSQL. The ability (`consultas:crear`) and the agency
 * link are the controller's (agencyOfCaller, requireAbility): covered over HTTP
 * in tests/functional/leads/intake.spec.ts.
 */
import { test } from '@japa/runner'
import { settings } from '#core/settings'
import { ok, fail } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import type { DeliveryService, NewDelivery } from '#core/outbound/deliveries'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type { OperatorView } from '#agencies/services/agency_directory'
import type ListingDirectory from '#listings/services/listing_directory'
import type { ListingSnapshot } from '#listings/services/listing_directory'
import type VehicleResolver from '#catalog/services/vehicle_resolver'
import type { ReceivedInquiry } from '#leads/models/inquiry'
import ReceiveInquiry, { type InquiryRequest } from '#leads/services/receive_inquiry'
import type InquiryEvents from '#leads/services/inquiry_events'
import SidPool from '#leads/services/sid_pool'
import type InquiryStore from '#leads/stores/inquiry_store'
import type { NewInquiryRow } from '#leads/stores/inquiry_store'
import type { FanoutConfig } from '#leads/services/notification_fanout'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import { BUYER, configModel } from './fixtures.js'

const AGENCY = 7
const PUBLISHER = 10
const CALLER = 20

const person = (id: number, email: string, isAdmin = false): OperatorView => ({
  id,
  email,
  firstName: 'Nombre',
  lastName: 'Apellido',
  phones: ['+54 11 5555-0000'],
  suspended: false,
  isAdmin,
})

const ADMIN = person(1, 'admin@agencia.example', true)
const COLLABORATOR = person(2, 'ana@agencia.example')
const RECEIVER = person(3, 'bruno@agencia.example')

function listing(fields: Partial<ListingSnapshot> = {}): ListingSnapshot {
  return {
    id: 100,
    appId: PUBLISHER,
    agencyId: AGENCY,
    externalId: 'EXT-1',
    refStock: 'R-1',
    state: 'active',
    brand: 'Toyota',
    model: 'Corolla',
    version: '2.0 XEI CVT',
    versionYear: 2026,
    mileage: 0,
    color: 'Gris',
    bodyType: 'Sedán',
    condition: 'Nuevo',
    price: { currency: 'USD', amount: 30_000 },
    downPayment: null,
    installment: null,
    operatorId: ADMIN.id,
    slug: 'toyota-corolla',
    ...fields,
  } as ListingSnapshot
}

/** The agencies module as the intake sees it: one agency, its members and its links. */
class FakeAgencies {
  admin_: OperatorView | null = ADMIN
  members = new Map<number, OperatorView>([
    [ADMIN.id, ADMIN],
    [COLLABORATOR.id, COLLABORATOR],
    [RECEIVER.id, RECEIVER],
  ])
  otherLeadsApps = [30, 31]
  held: Array<{ agencyId: number; tx: Tx | undefined }> = []
  operatorReads: number[][] = []
  forAppCalls: Array<[number, string]> = []

  async admin() {
    return this.admin_
  }
  async appsReceivingOtherLeads(agencyId: number) {
    return agencyId === AGENCY ? this.otherLeadsApps : []
  }
  async forApp(appId: number, adminMail: string) {
    this.forAppCalls.push([appId, adminMail])
    return {
      id: AGENCY,
      adminMail,
      tradeName: 'Agencia Leída',
      suspended: false,
      receivesOtherLeads: true,
    }
  }
  async operators(ids: number[]) {
    this.operatorReads.push(ids)
    return new Map(
      ids.filter((id) => this.members.has(id)).map((id) => [id, this.members.get(id)!])
    )
  }
  async holdMembers(agencyId: number, tx?: Tx) {
    this.held.push({ agencyId, tx })
    return true
  }
}

/** The listing as first read, and (after the handover lock) as read again. */
class FakeListings {
  reads: Array<ListingSnapshot | null>
  calls: Array<{ externalId: string; tx: unknown }> = []
  constructor(...reads: Array<ListingSnapshot | null>) {
    this.reads = reads
  }
  async forInquiry(_agencyId: number, externalId: string, tx?: unknown) {
    this.calls.push({ externalId, tx })
    return this.reads.length > 1 ? this.reads.shift()! : this.reads[0]
  }
}

class FakeVehicles {
  async versionById(id: number) {
    if (id !== 555) return fail('not_found' as const)
    return ok({
      id: 555,
      name: '1.8 XEI CVT',
      year: 2025,
      bodyType: 'Sedán',
      brandName: 'Toyota',
      modelName: 'Corolla',
    })
  }
}

/** The inquiries table: rows written, and the configurations each insert answers. */
class FakeInquiryStore {
  rows: Array<{ row: NewInquiryRow; audience: number[]; tx: Tx | undefined }> = []
  configs: FanoutConfig[] = []
  async insertReadingConfigs(row: NewInquiryRow, audience: number[], tx?: Tx) {
    this.rows.push({ row, audience, tx })
    return {
      id: 900 + this.rows.length,
      configs: this.configs.filter((each) => audience.includes(each.appId)),
    }
  }
}

class FakeDeliveries {
  created: Array<NewDelivery & { tx: Tx }> = []
  async create(input: NewDelivery, tx: Tx) {
    this.created.push({ ...input, tx })
    return {
      ...input,
      id: `d${this.created.length}`,
      ownerId: String(input.ownerId),
      messageId: input.messageId ?? '',
    }
  }
}

class FakeEvents {
  received_: Array<{ inquiry: ReceivedInquiry; audience: number[]; adminMail: string; tx: Tx }> = []
  async received(inquiry: ReceivedInquiry, audience: number[], adminMail: string, tx: Tx) {
    this.received_.push({ inquiry, audience, adminMail, tx })
  }
}

const config = configModel

/** Who the first written inquiry names as responsible, as the operator's id and e-mail. */
const responsible = (inquiries: FakeInquiryStore) => {
  const { operatorId, operatorEmail } = inquiries.rows[0].row
  return { operatorId, operatorEmail }
}
const asResponsible = (operator: OperatorView) => ({
  operatorId: operator.id,
  operatorEmail: operator.email,
})

const listingInquiry = { appId: CALLER, agencyId: AGENCY, agency: { tradeName: 'Agencia' } }

function world(...listingReads: Array<ListingSnapshot | null>) {
  const fakes = {
    agencies: new FakeAgencies(),
    listings: new FakeListings(...(listingReads.length ? listingReads : [listing()])),
    vehicles: new FakeVehicles(),
    deliveries: new FakeDeliveries(),
    inquiries: new FakeInquiryStore(),
    events: new FakeEvents(),
    unitOfWork: new FakeUnitOfWork(),
  }
  const action = new ReceiveInquiry(
    fakes.agencies as unknown as AgencyDirectory,
    fakes.listings as unknown as ListingDirectory,
    fakes.vehicles as unknown as VehicleResolver,
    fakes.deliveries as unknown as DeliveryService,
    fakes.inquiries as unknown as InquiryStore,
    fakes.events as unknown as InquiryEvents,
    new SidPool(),
    fakes.unitOfWork as any
  )
  /** A listing inquiry (or the subject given) sent by the caller that read the agency. */
  const receive = (subject?: InquiryRequest['subject']) =>
    action.execute({ ...listingInquiry, request: request(subject) })
  return { ...fakes, action, receive }
}

function request(
  subject: InquiryRequest['subject'] = { kind: 'listing', externalId: 'EXT-1' }
): InquiryRequest {
  return {
    subject,
    origin: 'App',
    buyer: { ...BUYER, interest: 'Compra' },
  }
}

test.group('ReceiveInquiry: the subject', () => {
  test('an active listing is received; a suspended or archived one is refused as inactive', async ({
    assert,
  }) => {
    const active = world(listing({ state: 'active' }))
    assert.isTrue((await active.receive()).ok)
    assert.lengthOf(active.inquiries.rows, 1)
    for (const state of ['suspended', 'archived'] as const) {
      const inactive = world(listing({ state }))
      const result = await inactive.receive()
      assert.deepEqual(result, fail('listing_inactive'))
      // Nothing written, no transaction opened.
      assert.lengthOf(inactive.inquiries.rows, 0)
      assert.equal(inactive.unitOfWork.committed + inactive.unitOfWork.rolledBack, 0)
    }
  })

  test('an unknown listing is listing_not_found; an agency without administrator is agency_not_found', async ({
    assert,
  }) => {
    const missing = world(null)
    assert.deepEqual(await missing.receive(), fail('listing_not_found'))
    const headless = world()
    headless.agencies.admin_ = null
    assert.deepEqual(await headless.receive(), fail('agency_not_found'))
    assert.lengthOf(missing.inquiries.rows, 0)
    assert.lengthOf(headless.inquiries.rows, 0)
  })

  test('a catalogue version is received; an unknown version is version_not_found', async ({
    assert,
  }) => {
    const known = world()
    const result = await known.receive({ kind: 'catalog', versionId: 555 })
    assert.isTrue(result.ok)
    const { row } = known.inquiries.rows[0]
    assert.equal(row.kind, 'catalog')
    assert.equal(row.versionId, 555)
    assert.isNull(row.listingId)
    // docs/decisions/leads.md, Leads, "Snapshot": ExternalId '', Nuevo, no prices.
    assert.deepInclude(row.vehicle, {
      externalId: '',
      condition: 'Nuevo',
      mileage: 0,
      price: null,
      brand: 'Toyota',
      versionYear: 2025,
    })

    const unknown = world()
    assert.deepEqual(
      await unknown.receive({ kind: 'catalog', versionId: 556 }),
      fail('version_not_found')
    )
    assert.lengthOf(unknown.inquiries.rows, 0)
  })

  test('the listing is snapshotted as read (later edits do not change the inquiry)', async ({
    assert,
  }) => {
    const { receive, inquiries } = world(
      listing({ mileage: 12_000, condition: 'Usado', refStock: 'R-9' })
    )
    await receive()
    assert.deepInclude(inquiries.rows[0].row.vehicle, {
      externalId: 'EXT-1',
      refStock: 'R-9',
      mileage: 12_000,
      condition: 'Usado',
      price: { currency: 'USD', amount: 30_000 },
    })
    assert.equal(inquiries.rows[0].row.listingId, 100)
  })
})

test.group('ReceiveInquiry: visibility', () => {
  test('a listing inquiry belongs to the publishing app, whoever sends it; its audience is that app only', async ({
    assert,
  }) => {
    const { receive, inquiries, events } = world()
    await receive()
    const [{ row, audience }] = inquiries.rows
    assert.equal(row.appId, PUBLISHER)
    assert.equal(row.sourceAppId, CALLER)
    assert.deepEqual(audience, [PUBLISHER])
    assert.deepEqual(events.received_[0].audience, [PUBLISHER])
  })

  test('a catalogue inquiry has no app; its audience is every app receiving the agency’s other leads', async ({
    assert,
  }) => {
    const { receive, inquiries, events } = world()
    await receive({ kind: 'catalog', versionId: 555 })
    const [{ row, audience }] = inquiries.rows
    assert.isNull(row.appId)
    assert.equal(row.sourceAppId, CALLER)
    assert.deepEqual(audience, [30, 31])
    assert.deepEqual(events.received_[0].audience, [30, 31])
  })

  test('a catalogue inquiry of an agency no app receives other leads for reaches nobody, yet is kept', async ({
    assert,
  }) => {
    const { receive, agencies, inquiries, deliveries } = world()
    agencies.otherLeadsApps = []
    inquiries.configs = [
      config(1, 30, { webhookActive: true, webhookCallback: 'https://h.example/w' }),
    ]
    const result = await receive({ kind: 'catalog', versionId: 555 })
    assert.isTrue(result.ok)
    assert.deepEqual(inquiries.rows[0].audience, [])
    assert.lengthOf(deliveries.created, 0)
  })
})

test.group('ReceiveInquiry: the responsible operator', () => {
  test('the listing’s collaborator is responsible, read after the handover lock, in the transaction', async ({
    assert,
  }) => {
    const { receive, agencies, listings, inquiries } = world(
      listing({ operatorId: COLLABORATOR.id })
    )
    await receive()
    assert.deepEqual(agencies.held, [{ agencyId: AGENCY, tx: FAKE_TX }])
    // Read once before the transaction and once again under the lock.
    assert.deepEqual(
      listings.calls.map((call) => call.tx),
      [undefined, FAKE_TX]
    )
    assert.deepEqual(responsible(inquiries), asResponsible(COLLABORATOR))
  })

  test('a collaborator detached before the lock: the inquiry goes to the operator the listing names after it', async ({
    assert,
  }) => {
    // First read: Ana; desasociar hands her listing to Bruno before the intake gets the lock.
    const { receive, inquiries } = world(
      listing({ operatorId: COLLABORATOR.id }),
      listing({ operatorId: RECEIVER.id })
    )
    await receive()
    assert.deepEqual(responsible(inquiries), asResponsible(RECEIVER))
  })

  test('a listing handed to the administrator meanwhile, or gone, falls back without another operator read', async ({
    assert,
  }) => {
    const toAdmin = world(
      listing({ operatorId: COLLABORATOR.id }),
      listing({ operatorId: ADMIN.id })
    )
    await toAdmin.receive()
    assert.include(toAdmin.inquiries.rows[0].row, { operatorId: ADMIN.id })
    assert.deepEqual(toAdmin.agencies.operatorReads, [])

    // The listing vanished under the lock: its first read's operator stays responsible.
    const gone = world(listing({ operatorId: COLLABORATOR.id }), null)
    await gone.receive()
    assert.include(gone.inquiries.rows[0].row, { operatorId: COLLABORATOR.id })
  })

  test('the administrator’s listing takes no lock and no operator read (the bench’s 8 statements)', async ({
    assert,
  }) => {
    const { receive, agencies, listings, inquiries } = world(listing({ operatorId: ADMIN.id }))
    await receive()
    assert.deepEqual(agencies.held, [])
    assert.deepEqual(agencies.operatorReads, [])
    assert.lengthOf(listings.calls, 1)
    assert.deepEqual(responsible(inquiries), asResponsible(ADMIN))
  })

  test('no operator on the listing, an operator no longer a member, and catalogue inquiries: the administrator', async ({
    assert,
  }) => {
    const none = world(listing({ operatorId: null } as unknown as Partial<ListingSnapshot>))
    await none.receive()
    assert.include(none.inquiries.rows[0].row, { operatorId: ADMIN.id })
    assert.deepEqual(none.agencies.held, [])

    const stranger = world(listing({ operatorId: 99 }))
    await stranger.receive()
    assert.deepEqual(responsible(stranger.inquiries), asResponsible(ADMIN))

    const catalogue = world()
    await catalogue.receive({ kind: 'catalog', versionId: 555 })
    assert.include(catalogue.inquiries.rows[0].row, { operatorId: ADMIN.id })
    assert.deepEqual(catalogue.agencies.held, [])
  })
})

test.group('ReceiveInquiry: what is written', () => {
  test('the resend window closes RESEND_WINDOW_DAYS after reception, open until then', async ({
    assert,
  }) => {
    const { receive, inquiries } = world()
    const result = await receive()
    const { row } = inquiries.rows[0]
    assert.isTrue(row.resendOpen)
    assert.equal(
      row.resendClosesAt.toMillis() - row.receivedAt.toMillis(),
      settings.resendWindowDays * 86_400_000
    )
    assert.isTrue(result.ok && result.value.resendClosesAt.equals(row.resendClosesAt))
  })

  test('one transaction: the inquiry, its deliveries and its event, all in it; the answer carries the new id', async ({
    assert,
  }) => {
    const { receive, inquiries, deliveries, events, unitOfWork } = world()
    inquiries.configs = [
      config(1, PUBLISHER, { webhookActive: true, webhookCallback: 'https://h.example/w' }),
    ]
    const result = await receive()
    assert.equal(unitOfWork.committed, 1)
    assert.equal(inquiries.rows[0].tx, FAKE_TX)
    assert.isTrue(deliveries.created.every((delivery) => delivery.tx === FAKE_TX))
    assert.equal(events.received_[0].tx, FAKE_TX)
    assert.equal(events.received_[0].adminMail, ADMIN.email)
    assert.isTrue(result.ok && result.value.id === 901)
    assert.equal(deliveries.created[0].ownerId, '901')
  })

  test('a failing delivery rolls the whole intake back and the error surfaces', async ({
    assert,
  }) => {
    const { receive, inquiries, deliveries, events, unitOfWork } = world()
    inquiries.configs = [
      config(1, PUBLISHER, { webhookActive: true, webhookCallback: 'https://h.example/w' }),
    ]
    deliveries.create = async () => {
      throw new Error('queue down')
    }
    await assert.rejects(() => receive(), 'queue down')
    assert.equal(unitOfWork.rolledBack, 1)
    assert.equal(unitOfWork.committed, 0)
    assert.lengthOf(events.received_, 0)
  })

  test('deliveries: one per active channel with a target, of the audience’s configurations only, one message id', async ({
    assert,
  }) => {
    const { receive, inquiries, deliveries } = world()
    inquiries.configs = [
      config(1, PUBLISHER, {
        webhookActive: true,
        webhookCallback: 'https://h.example/w',
        adfMailActive: true,
        adfMailEmail: 'crm@example.com',
        // On, but without a target: nothing.
        adfHookActive: true,
        // A target, but off: nothing.
        htmlMailBcc: ['ventas@example.com'],
      }),
      // Another app's configuration: not this inquiry's audience.
      config(2, 99, { webhookActive: true, webhookCallback: 'https://other.example/w' }),
    ]
    const result = await receive()
    assert.deepEqual(
      deliveries.created.map((delivery) => [delivery.channel, delivery.appId, delivery.target]),
      [
        ['webhook', PUBLISHER, 'https://h.example/w'],
        ['adfMail', PUBLISHER, 'crm@example.com'],
      ]
    )
    const sid = result.ok ? result.value.sid : ''
    assert.isTrue(deliveries.created.every((delivery) => delivery.messageId === `msg_${sid}`))
    assert.isTrue(deliveries.created.every((delivery) => delivery.ownerType === 'inquiry'))
  })

  test('no configuration: the inquiry is received without deliveries', async ({ assert }) => {
    const { receive, inquiries, deliveries, events } = world()
    assert.isTrue((await receive()).ok)
    assert.lengthOf(inquiries.rows, 1)
    assert.lengthOf(deliveries.created, 0)
    assert.lengthOf(events.received_, 1)
  })

  test('the agency the caller read is used; without it the agency is read for the inquiry’s app', async ({
    assert,
  }) => {
    const known = world()
    await known.receive()
    assert.deepEqual(known.agencies.forAppCalls, [])

    const unknown = world()
    await unknown.action.execute({ appId: CALLER, agencyId: AGENCY, request: request() })
    // The publishing app's view of the agency, not the sender's.
    assert.deepEqual(unknown.agencies.forAppCalls, [[PUBLISHER, ADMIN.email]])
  })

  test('the buyer’s fields and the origin are written as given; each inquiry gets its own sid', async ({
    assert,
  }) => {
    const { receive, inquiries } = world()
    await receive()
    await receive()
    const [first, second] = inquiries.rows.map(({ row }) => row)
    assert.include(first, {
      origin: 'App',
      interest: 'Compra',
      firstName: BUYER.firstName,
      email: BUYER.email,
      agencyId: AGENCY,
    })
    assert.match(first.sid, /^[a-z2-9]{10}$/)
    assert.notEqual(first.sid, second.sid)
  })
})
