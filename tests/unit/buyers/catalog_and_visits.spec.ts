/*
 * The buyers' actions over fake stores: the fair rotation of catalogue
 * inquiries among a region's agencies, and which page views count.
 */
import { test } from '@japa/runner'
import PickCatalogAgency, { type CatalogRecipient } from '#buyers/services/pick_catalog_agency'
import RecordVisit, { visitorHash } from '#buyers/services/record_visit'
import PruneVisitors from '#buyers/services/prune_visitors'
import type AgencyDirectory from '#agencies/services/agency_directory'
import type CatalogAssignmentStore from '#buyers/stores/catalog_assignment_store'
import type VisitStore from '#buyers/stores/visit_store'
import type { VisitedListing } from '#buyers/stores/visit_store'

class FakeAssignments implements Pick<CatalogAssignmentStore, 'lastAssigned' | 'recordAssigned'> {
  constructor(public last = new Map<number, number>()) {}

  async lastAssigned(ids: number[]) {
    return new Map([...this.last].filter(([id]) => ids.includes(id)))
  }

  async recordAssigned(agencyId: number) {
    this.last.set(agencyId, Math.max(0, ...this.last.values()) + 1)
  }
}

function picker(recipients: CatalogRecipient[], assignments = new FakeAssignments()) {
  const agencies = { otherLeadsRecipients: async () => recipients }
  const pick = new PickCatalogAgency(
    agencies as unknown as AgencyDirectory,
    assignments as unknown as CatalogAssignmentStore
  )
  return { pick, assignments }
}

const recipient = (agencyId: number, appId = 1): CatalogRecipient => ({
  agencyId,
  appId,
  tradeName: `Agencia ${agencyId}`,
})

test.group('Catalogue inquiries: which agency', () => {
  test('no agency in the region is a failure', async ({ assert }) => {
    const { pick } = picker([])
    assert.deepEqual(await pick.execute(5), { ok: false, reason: 'none_in_region' })
  })

  test('never assigned first, then the least recently assigned', async ({ assert }) => {
    const { pick } = picker(
      [recipient(1), recipient(2), recipient(3)],
      new FakeAssignments(
        new Map([
          [1, 200],
          [3, 100],
        ])
      )
    )
    assert.deepEqual(await pick.execute(5), { ok: true, value: recipient(2) })
  })

  test('ties go to the lowest agency id, then the lowest app id', async ({ assert }) => {
    const { pick } = picker([recipient(4, 9), recipient(3, 8), recipient(3, 2)])
    assert.deepEqual(await pick.execute(5), { ok: true, value: recipient(3, 2) })
  })

  test('recording an assignment moves the agency to the back of the rotation', async ({
    assert,
  }) => {
    const { pick } = picker([recipient(1), recipient(2)])
    const chosen: number[] = []
    for (let n = 0; n < 4; n++) {
      const result = await pick.execute(5)
      assert.isTrue(result.ok)
      if (!result.ok) return
      chosen.push(result.value.agencyId)
      await pick.assigned(result.value.agencyId)
    }
    assert.deepEqual(chosen, [1, 2, 1, 2])
  })
})

class FakeVisits implements Pick<VisitStore, 'count' | 'pruneVisitorsBefore'> {
  seen = new Set<string>()
  pruned: string[] = []

  async count(listing: VisitedListing, day: string, hash: Buffer) {
    const key = `${listing.listingId}/${day}/${hash.toString('hex')}`
    if (this.seen.has(key)) return false
    this.seen.add(key)
    return true
  }

  async pruneVisitorsBefore(day: string) {
    this.pruned.push(day)
  }
}

const listing: VisitedListing = {
  listingId: 1,
  appId: 1,
  agencyId: 1,
  externalId: 'EXT-1',
  operatorId: null,
}
const person = { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' }

test.group('Listing visits: what counts', () => {
  test('a visitor counts once per listing and day; bots and scripts never reach the store', async ({
    assert,
  }) => {
    const store = new FakeVisits()
    const record = new RecordVisit(store as unknown as VisitStore)
    assert.equal(await record.execute(listing, person, '2026-05-01'), 'counted')
    assert.equal(await record.execute(listing, person, '2026-05-01'), 'repeat')
    assert.equal(await record.execute(listing, person, '2026-05-02'), 'counted')
    assert.equal(
      await record.execute({ ...listing, listingId: 2 }, person, '2026-05-01'),
      'counted'
    )
    assert.equal(
      await record.execute(listing, { ...person, userAgent: 'Googlebot/2.1' }, '2026-05-01'),
      'bot'
    )
    assert.equal(await record.execute(listing, { ...person, userAgent: ' ' }, '2026-05-01'), 'bot')
    assert.equal(store.seen.size, 3)
  })

  test("a visitor's hash differs from day to day (unlinkable across days)", ({ assert }) => {
    assert.notDeepEqual(visitorHash('2026-05-01', person), visitorHash('2026-05-02', person))
    assert.deepEqual(visitorHash('2026-05-01', person), visitorHash('2026-05-01', person))
  })

  test('pruning keeps yesterday and today', async ({ assert }) => {
    const store = new FakeVisits()
    await new PruneVisitors(store as unknown as VisitStore).execute('2026-05-01')
    assert.deepEqual(store.pruned, ['2026-04-30'])
  })
})
