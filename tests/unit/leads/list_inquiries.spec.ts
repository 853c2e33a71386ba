/*
 * ListInquiries alone (docs/decisions/leads.md, Leads: "List"): the period in whole
 * days of TZ, the operator filter, and which read answers — over a fake reader.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { DateTime } from 'luxon'
import { fail } from '#core/result'
import { settings } from '#core/settings'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type InquiryReader from '#leads/services/inquiry_reader'
import type { Audience, ListFilters } from '#leads/services/inquiry_reader'
import ListInquiries, { DefaultPeriod } from '#leads/services/list_inquiries'
import { LIMITS } from '#leads/validators/inquiry_validators'
import { AGENCY } from './fixtures.js'

const EMPTY = { inquiries: [], total: 0, adminMails: new Map() }

class FakeReader {
  pages: Array<{ audience: Audience; filters: ListFilters }> = []
  operatorPages: Array<{ appId: number; filters: ListFilters }> = []
  async page(audience: Audience, filters: ListFilters) {
    this.pages.push({ audience, filters })
    return EMPTY
  }
  async pageForOperator(appId: number, filters: ListFilters) {
    this.operatorPages.push({ appId, filters })
    return EMPTY
  }
}

function world(members: string[] = ['ana@agencia.example']) {
  const reader = new FakeReader()
  const agencies = {
    member: async (_agencyId: number, email: string) =>
      members.includes(email) ? { id: 2, email } : null,
  }
  const action = new ListInquiries(
    reader as unknown as InquiryReader,
    agencies as unknown as AgencyDirectory,
    new DefaultPeriod()
  )
  return { action, reader }
}

/** A vine date: midnight of that calendar day in the process's zone. */
const day = (iso: string) => DateTime.fromISO(iso).toJSDate()

test.group('ListInquiries', () => {
  test('the default period is [today − 90 days, tomorrow) in TZ, page 1 of 100, made once a day', async ({
    assert,
  }) => {
    const { action, reader } = world()
    const result = await action.execute(10, AGENCY, {})
    const today = DateTime.now().setZone(settings.timezone).startOf('day')
    const [{ filters, audience }] = reader.pages
    assert.isTrue(filters.from.equals(today.minus({ days: LIMITS.listDays })))
    assert.isTrue(filters.to.equals(today.plus({ days: 1 })))
    assert.include(filters, { page: 1, perPage: LIMITS.perPage })
    assert.deepEqual(audience, { appId: 10, agencyId: 7, receivesOtherLeads: true })
    assert.isTrue(result.ok)

    // Made once a day, in the one DefaultPeriod of the process.
    const periods = await app.container.make(DefaultPeriod)
    assert.strictEqual(periods, await app.container.make(DefaultPeriod))
    assert.strictEqual(periods.today(), periods.today())
  })

  test('desde and hasta are whole days, both included; hasta before desde is period_reversed, the same day is not', async ({
    assert,
  }) => {
    const { action, reader } = world()
    const sameDay = await action.execute(10, AGENCY, {
      from: day('2026-03-01'),
      to: day('2026-03-01'),
    })
    assert.isTrue(sameDay.ok)
    const [{ filters }] = reader.pages
    assert.equal(filters.from.toISODate(), '2026-03-01')
    assert.equal(filters.to.toISODate(), '2026-03-02')
    assert.equal(filters.from.zoneName, settings.timezone)

    assert.deepEqual(
      await action.execute(10, AGENCY, { from: day('2026-03-02'), to: day('2026-03-01') }),
      fail('period_reversed')
    )
    assert.lengthOf(reader.pages, 1)
  })

  test('operador of the agency filters its page; one who is not a collaborator is not_a_member', async ({
    assert,
  }) => {
    const { action, reader } = world(['ana@agencia.example'])
    assert.isTrue((await action.execute(10, AGENCY, { operator: 'ana@agencia.example' })).ok)
    assert.equal(reader.pages[0].filters.operatorEmail, 'ana@agencia.example')
    assert.deepEqual(
      await action.execute(10, AGENCY, { operator: 'otro@example.com' }),
      fail('not_a_member')
    )
    assert.lengthOf(reader.pages, 1)
  })

  test('without an agency: operador spans the app’s agencies; without operador either, operator_or_agency_required', async ({
    assert,
  }) => {
    const { action, reader } = world()
    assert.deepEqual(await action.execute(10, null, {}), fail('operator_or_agency_required'))
    const result = await action.execute(10, null, { operator: 'nadie@example.com', page: 3 })
    // An unknown operator is not refused here: an empty page.
    assert.isTrue(result.ok)
    assert.equal(reader.operatorPages[0].appId, 10)
    assert.include(reader.operatorPages[0].filters, {
      operatorEmail: 'nadie@example.com',
      page: 3,
    })
    assert.lengthOf(reader.pages, 0)
  })
})
