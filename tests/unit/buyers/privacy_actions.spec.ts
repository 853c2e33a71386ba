/*
 * The buyers' privacy actions with hand-rolled fakes (docs/design.md §16):
 * the pure rules of the person (normalising, masking, HMAC, due dates), filing
 * a request, fulfilling it (access and suppression) and the retention run.
 */
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import type { UnitOfWork } from '#core/database/unit_of_work'
import type JobRunner from '#core/jobs/runner'
import type { MailFiles } from '#core/mail/mail_files'
import type { DeliveryService } from '#core/outbound/deliveries'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type BuyerData from '#leads/services/buyer_data'
import type { BuyerInquiry, BuyerKeys } from '#leads/services/buyer_data'
import type Idempotency from '#core/http/idempotency'
import type PrivacyStore from '#buyers/stores/privacy_store'
import type { AuditEntry, NewPrivacyRequest, PrivacyRequestRow } from '#buyers/stores/privacy_store'
import FilePrivacyRequest, {
  PRIVACY_REQUEST_QUEUE,
} from '#buyers/services/privacy/file_privacy_request'
import FulfilPrivacyRequest from '#buyers/services/privacy/fulfil_privacy_request'
import ApplyRetention from '#buyers/services/privacy/apply_retention'
import RetentionSettings from '#buyers/services/privacy/retention_settings'
import PrivacyRequests from '#buyers/services/privacy/privacy_requests'
import type { AuditKey } from '#buyers/services/privacy/audit_key'
import PersonData from '#buyers/services/privacy/person'
import {
  dueDate,
  identifierHmacs,
  maskDigits,
  maskEmail,
  normalise,
  subjectHmac,
} from '#buyers/services/privacy/subject'

const zone = 'America/Argentina/Buenos_Aires'
const at = (iso: string) => DateTime.fromISO(iso, { zone })

class FakePrivacyStore {
  requests = new Map<string, PrivacyRequestRow>()
  audits: AuditEntry[] = []
  finished: { id: string; result: any }[] = []
  retentionRows: { agencyId: number; days: number }[] = []
  purged = 0
  purgedOf: { inquiryIds: number[]; keys: string[]; agencyId?: number | null }[] = []
  auditedMatched: [string, number][] = []
  #next = 1

  async insertRequest(request: NewPrivacyRequest) {
    const id = `00000000-0000-4000-8000-00000000000${this.#next++}`
    const row: PrivacyRequestRow = {
      id,
      agencyId: request.agencyId,
      appId: request.appId,
      kind: request.kind,
      state: 'pending',
      receivedAt: request.receivedAt,
      dueAt: request.dueAt,
      doneAt: null,
      matched: null,
      identifiers: request.identifiers,
      masked: request.masked,
      hasExport: false,
      exportExpiresAt: null,
    }
    this.requests.set(id, row)
    return row
  }

  async request(which: { id: string }) {
    return this.requests.get(which.id) ?? null
  }

  async finish(id: string, result: any) {
    this.finished.push({ id, result })
    const row = this.requests.get(id)!
    Object.assign(row, { state: 'done', matched: result.matched, identifiers: null })
  }

  async audit(entry: AuditEntry) {
    this.audits.push(entry)
  }

  async retentions() {
    return this.retentionRows
  }

  async purgeExports() {
    return this.purged
  }

  async purgeExportsOf(of: { inquiryIds: number[]; keys: string[]; agencyId?: number | null }) {
    this.purgedOf.push(of)
    return of.inquiryIds.length ? 1 : 0
  }

  async auditMatched(requestId: string, matched: number) {
    this.auditedMatched.push([requestId, matched])
  }

  async transactionMs() {
    return 1
  }
}

class FakeBuyers {
  inquiries: (BuyerInquiry & { receivedAt: Date; erased?: boolean; email: string })[] = []
  forgotten: number[][] = []
  asked: { keys: BuyerKeys; agencyId: number | null }[] = []

  async find(keys: BuyerKeys, agencyId: number | null) {
    this.asked.push({ keys, agencyId })
    return this.inquiries
      .filter(
        (inquiry) =>
          !inquiry.erased &&
          (agencyId === null || inquiry.agencyId === agencyId) &&
          inquiry.email === keys.email
      )
      .map(({ receivedAt: _r, erased: _e, ...inquiry }) => ({
        ...inquiry,
        phone: null,
        documentId: null,
      }))
  }

  exported: { ids: number[]; options: any }[] = []
  async export(ids: number[], _adminMail: string, options: any) {
    this.exported.push({ ids, options })
    return ids.map((id) => ({
      _links: { self: { href: `/v3/consultas/a/${id}` } },
      ...options.extra.get(id),
    }))
  }

  async forget(ids: number[]) {
    this.forgotten.push(ids)
    const erased = this.inquiries.filter((inquiry) => ids.includes(inquiry.id) && !inquiry.erased)
    for (const inquiry of erased) inquiry.erased = true
    return {
      erased,
      mailMessageIds: erased.map((inquiry) => `<delivery-${inquiry.id}@localhost>`),
      notified: new Map(),
    }
  }

  async expired(defaultCutoff: Date, cutoffs: { agencyId: number; cutoff: Date }[], limit: number) {
    return this.inquiries
      .filter((inquiry) => {
        const own = cutoffs.find((entry) => entry.agencyId === inquiry.agencyId)
        return !inquiry.erased && inquiry.receivedAt < (own?.cutoff ?? defaultCutoff)
      })
      .slice(0, limit)
      .map((inquiry) => inquiry.id)
  }
}

class FakeMailFiles {
  forgotten: string[] = []
  async forget(ids: Iterable<string>) {
    this.forgotten.push(...ids)
    return 0
  }
}

const KEY = { value: () => 'test-app-key-0123456789abcdef' } as AuditKey

class FakeIdempotency {
  needles: string[][] = []
  async forgetContaining(needles: string[]) {
    this.needles.push(needles)
    return 0
  }
}
const agencies = {
  admin: async () => ({ email: 'admin@agencia.example' }),
} as unknown as AgencyDirectory

function buyerInquiry(id: number, agencyId: number, email: string, receivedAt = new Date()) {
  return {
    id,
    sid: `sid${id}`,
    agencyId,
    appId: 7,
    sourceAppId: 7,
    kind: 'listing' as const,
    email,
    receivedAt,
  }
}

test.group('Privacy: the person (subject.ts)', () => {
  test('identifiers are normalised for matching, masked for lists', ({ assert }) => {
    assert.deepEqual(
      normalise({
        email: ' Juana.Perez@Example.COM ',
        phone: '+54 (11) 4567-1234',
        document: '30.123.456',
      }),
      {
        email: 'juana.perez@example.com',
        phone: { kind: 'national', value: '1145671234', ending: '1145671234' },
        document: '30123456',
      }
    )
    assert.deepEqual(normalise({}), { email: null, phone: null, document: null })
    assert.equal(maskEmail('juana.perez@example.com'), 'j***@example.com')
    assert.equal(maskDigits('+54 11 4567-1234'), '***1234')
    assert.isNull(maskEmail(null))
  })

  test('the audit HMAC: the same person, the same value; nothing readable; another key, another value', ({
    assert,
  }) => {
    const one = subjectHmac(normalise({ email: 'A@example.com' }), 'k1')
    assert.equal(one, subjectHmac(normalise({ email: 'a@EXAMPLE.com' }), 'k1'))
    assert.notEqual(one, subjectHmac(normalise({ email: 'a@example.com' }), 'k2'))
    assert.match(one, /^[0-9a-f]{64}$/)
    assert.notInclude(one, 'example')
  })

  test('due dates: access +10 calendar days; suppression +5 business days, on every day of the week', ({
    assert,
  }) => {
    // Friday 2026-11-27 10:00: access on Monday 12-07.
    assert.equal(
      dueDate('access', at('2026-11-27T10:00:00')).toISO(),
      at('2026-12-07T10:00:00').toISO()
    )
    // Received on each day of one week (Monday 11-23 … Sunday 11-29) → due, same time of day.
    const week: Array<[string, string]> = [
      ['2026-11-23T09:00:00', '2026-11-30T09:00:00'], // Monday → next Monday
      ['2026-11-24T09:00:00', '2026-12-01T09:00:00'], // Tuesday → next Tuesday
      ['2026-11-25T18:30:00', '2026-12-02T18:30:00'], // Wednesday → next Wednesday
      ['2026-11-26T09:00:00', '2026-12-03T09:00:00'], // Thursday → next Thursday
      ['2026-11-27T10:00:00', '2026-12-04T10:00:00'], // Friday → next Friday
      ['2026-11-28T09:00:00', '2026-12-04T09:00:00'], // Saturday → counts from Monday: Friday
      ['2026-11-29T09:00:00', '2026-12-04T09:00:00'], // Sunday → counts from Monday: Friday
    ]
    for (const [received, due] of week) {
      assert.equal(dueDate('erasure', at(received)).toISO(), at(due).toISO(), received)
    }
  })
})

test.group('Privacy: FilePrivacyRequest', () => {
  test('records the request masked, with its due date, audits an HMAC and queues the job in the same transaction', async ({
    assert,
  }) => {
    const store = new FakePrivacyStore()
    const unitOfWork = new FakeUnitOfWork()
    const sent: any[] = []
    const runner = { send: async (...args: any[]) => sent.push(args) } as unknown as JobRunner
    const file = new FilePrivacyRequest(
      store as unknown as PrivacyStore,
      unitOfWork as unknown as UnitOfWork,
      runner,
      KEY
    )
    const now = at('2026-11-27T10:00:00')
    const filed = await file.execute({
      appId: 7,
      agencyId: 3,
      kind: 'erasure',
      identifiers: { email: 'juana@example.com', phone: '11 4567-1234' },
      now,
    })
    assert.isTrue(filed.ok)
    const row = filed.value
    assert.equal(row.state, 'pending')
    assert.equal(row.dueAt.toISO(), at('2026-12-04T10:00:00').toISO())
    assert.deepEqual(row.masked, { email: 'j***@example.com', phone: '***1234', document: null })
    assert.equal(unitOfWork.committed, 1)
    assert.deepEqual(sent, [[PRIVACY_REQUEST_QUEUE, { requestId: row.id }, { trx: FAKE_TX }]])
    assert.lengthOf(store.audits, 1)
    assert.equal(store.audits[0].source, 'request')
    assert.equal(
      store.audits[0].subjectHmac,
      subjectHmac(normalise({ email: 'juana@example.com', phone: '11 4567-1234' }), KEY.value())
    )
    assert.notInclude(JSON.stringify(store.audits), 'juana')
  })
})

test.group('Privacy: FulfilPrivacyRequest', (group) => {
  let store: FakePrivacyStore
  let buyers: FakeBuyers
  let mailFiles: FakeMailFiles
  let idempotency: FakeIdempotency
  let fulfil: FulfilPrivacyRequest

  group.each.setup(() => {
    store = new FakePrivacyStore()
    buyers = new FakeBuyers()
    mailFiles = new FakeMailFiles()
    idempotency = new FakeIdempotency()
    fulfil = new FulfilPrivacyRequest(
      store as unknown as PrivacyStore,
      new PersonData(
        buyers as unknown as BuyerData,
        idempotency as unknown as Idempotency,
        store as unknown as PrivacyStore,
        KEY
      ),
      agencies,
      new FakeUnitOfWork() as unknown as UnitOfWork,
      mailFiles as unknown as MailFiles
    )
    buyers.inquiries = [
      buyerInquiry(1, 3, 'juana@example.com'),
      buyerInquiry(2, 3, 'juana@example.com'),
      buyerInquiry(3, 4, 'juana@example.com'), // another agency
      buyerInquiry(4, 3, 'otro@example.com'),
    ]
  })

  async function filed(kind: 'access' | 'erasure') {
    return store.insertRequest({
      agencyId: 3,
      appId: 7,
      kind,
      receivedAt: DateTime.now(),
      dueAt: DateTime.now(),
      identifiers: { email: 'Juana@Example.com' },
      masked: { email: 'J***@example.com', phone: null, document: null },
    })
  }

  test("suppression: only the agency's matches, mail files after the commit; the identifiers go", async ({
    assert,
  }) => {
    const request = await filed('erasure')
    const result = await fulfil.execute(request.id)
    assert.deepEqual(result, { ok: true, value: { matched: 2, already: false } })
    assert.deepEqual(buyers.asked[0], {
      keys: { email: 'juana@example.com', documentKey: null, phoneEndings: [] },
      agencyId: 3,
    })
    assert.deepEqual(buyers.forgotten, [[1, 2]])
    // Kept form pages: by the e-mail's mark (lower-cased), and as typed and lower-cased in bodies.
    assert.deepEqual(idempotency.needles, [
      ['"e:juana@example.com"', 'Juana@Example.com', 'juana@example.com'],
    ])
    // The exports of the same person: those holding the inquiries, or named by the e-mail, at the agency.
    assert.deepEqual(store.purgedOf, [
      {
        inquiryIds: [1, 2],
        keys: identifierHmacs(normalise({ email: 'juana@example.com' }), KEY.value()),
        agencyId: 3,
      },
    ])
    assert.sameMembers(mailFiles.forgotten, ['<delivery-1@localhost>', '<delivery-2@localhost>'])
    assert.deepEqual(store.finished, [{ id: request.id, result: { matched: 2 } }])
    assert.deepEqual(store.auditedMatched, [[request.id, 2]])
    assert.isNull(store.requests.get(request.id)!.identifiers)
  })

  test('a request already done is left alone (the job runs at least once)', async ({ assert }) => {
    const request = await filed('erasure')
    await fulfil.execute(request.id)
    const again = await fulfil.execute(request.id)
    assert.deepEqual(again, { ok: true, value: { matched: 2, already: true } })
    assert.lengthOf(buyers.forgotten, 1)
  })

  test('access: the export is kept 30 days, with what matched and what finds it; nothing is suppressed', async ({
    assert,
  }) => {
    const request = await filed('access')
    await fulfil.execute(request.id)
    assert.lengthOf(buyers.forgotten, 0)
    assert.lengthOf(store.purgedOf, 0)
    const [{ result }] = store.finished
    assert.equal(result.matched, 2)
    assert.lengthOf(result.export.Consultas, 2)
    assert.deepEqual(result.export.Consultas[0].Coincidencia, ['Email'])
    // Built for the filing app: other apps' targets as channels.
    assert.equal(buyers.exported[0].options.viewer, 7)
    assert.deepEqual(result.exportInquiryIds, [1, 2])
    assert.deepEqual(
      result.exportKeys,
      identifierHmacs(normalise({ email: 'juana@example.com' }), KEY.value())
    )
    assert.deepEqual(store.auditedMatched, [[request.id, 2]])
    assert.equal(result.export.Interesado.Email, 'Juana@Example.com')
    const days = result.exportExpiresAt.diff(DateTime.now(), 'days').days
    assert.approximately(days, 30, 0.01)
  })

  test('an unknown request: request_not_found', async ({ assert }) => {
    const result = await fulfil.execute('00000000-0000-4000-8000-000000000099')
    assert.deepEqual(result, { ok: false, reason: 'request_not_found' })
  })
})

test.group('Privacy: ApplyRetention', () => {
  test("batches: each agency's own cutoff or the default; mail files, payloads, exports; one audit per batch", async ({
    assert,
  }) => {
    const store = new FakePrivacyStore()
    store.retentionRows = [{ agencyId: 4, days: 30 }]
    store.purged = 2
    const buyers = new FakeBuyers()
    const now = DateTime.now()
    const ago = (days: number) => now.minus({ days }).toJSDate()
    buyers.inquiries = [
      buyerInquiry(1, 3, 'a@example.com', ago(800)), // default 730: goes
      buyerInquiry(2, 3, 'b@example.com', ago(100)), // default: stays
      buyerInquiry(3, 4, 'c@example.com', ago(31)), // own 30: goes
      buyerInquiry(4, 4, 'd@example.com', ago(29)), // own 30: stays
      buyerInquiry(5, 3, 'e@example.com', ago(731)), // default: goes
    ]
    const emptied: any[] = []
    const deliveries = {
      emptySettled: async (...args: any[]) => {
        emptied.push(args)
        return 5
      },
    } as unknown as DeliveryService
    const mailFiles = new FakeMailFiles()
    const unitOfWork = new FakeUnitOfWork()
    const retention = new ApplyRetention(
      store as unknown as PrivacyStore,
      buyers as unknown as BuyerData,
      deliveries,
      unitOfWork as unknown as UnitOfWork,
      mailFiles as unknown as MailFiles
    )
    const run = await retention.execute({ now, batch: 2 })
    assert.deepEqual(buyers.forgotten, [[1, 3], [5]])
    assert.equal(run.erased, 3)
    assert.equal(run.batches, 2)
    assert.lengthOf(run.batchMs, 2)
    assert.deepEqual(run.batchDbMs, [1, 1])
    assert.equal(unitOfWork.committed, 2)
    assert.lengthOf(mailFiles.forgotten, 3)
    assert.equal(run.payloadsEmptied, 5)
    // Exports holding an inquiry a batch erased (one per batch here), then those past 30 days (2).
    assert.deepEqual(store.purgedOf, [
      { inquiryIds: [1, 3], keys: [] },
      { inquiryIds: [5], keys: [] },
    ])
    assert.equal(run.exportsPurged, 4)
    // Payloads: settled deliveries older than the resend window (7) + 3 days.
    assert.equal(emptied[0][0], 'inquiry')
    assert.approximately(now.diff(DateTime.fromJSDate(emptied[0][1]), 'days').days, 10, 0.001)
    assert.deepEqual(
      store.audits.map((entry) => [entry.source, entry.matched, entry.subjectHmac]),
      [
        ['retention', 2, null],
        ['retention', 1, null],
      ]
    )
  })
})

test.group('Privacy: the agency’s requests and retention, per app (docs/design.md §25)', () => {
  test('RetentionSettings: the inviting app writes; another linked app is refused and may not edit', async ({
    assert,
  }) => {
    const written: [number, number][] = []
    const store = {
      retention: async () => 90,
      setRetention: async (agencyId: number, days: number) => written.push([agencyId, days]),
    } as unknown as PrivacyStore
    const directory = { invitingApp: async () => 7 } as unknown as AgencyDirectory
    const settings = new RetentionSettings(store, directory)
    assert.deepEqual(await settings.write(3, 8, 30), { ok: false, reason: 'not_inviting_app' })
    assert.deepEqual(written, [])
    assert.deepEqual(await settings.read(3, 8), { days: 90, isDefault: false, editable: false })
    assert.deepEqual(await settings.write(3, 7, 30), {
      ok: true,
      value: { days: 30, isDefault: false, editable: true },
    })
    assert.deepEqual(written, [[3, 30]])
  })

  test("PrivacyRequests: any linked app reads the agency's request; the export is the filing app's", async ({
    assert,
  }) => {
    const store = new FakePrivacyStore()
    const row = await store.insertRequest({
      agencyId: 3,
      appId: 7,
      kind: 'access',
      receivedAt: DateTime.now(),
      dueAt: DateTime.now(),
      identifiers: { email: 'a@example.com' },
      masked: { email: 'a***@example.com', phone: null, document: null },
    })
    Object.assign(row, { state: 'done' })
    const reads = new PrivacyRequests(
      Object.assign(store, {
        exportOf: async () => ({ Consultas: [] }),
      }) as unknown as PrivacyStore
    )
    assert.isTrue((await reads.one({ agencyId: 3, appId: 8 }, row.id)).ok)
    assert.deepEqual(await reads.export({ agencyId: 3, appId: 8 }, row.id), {
      ok: false,
      reason: 'export_of_another_app',
    })
    assert.isTrue((await reads.export({ agencyId: 3, appId: 7 }, row.id)).ok)
  })
})
