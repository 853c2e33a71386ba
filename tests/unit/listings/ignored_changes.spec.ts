/*
 * Nothing changed or ignored without a word (docs/design.md §24, §25), on the
 * actions alone with the fakes of ./fakes.ts: members fixed at creation,
 * the notices (Avisos) of a change not made as asked, and the photos the
 * representation shows sent back.
 */
import { test } from '@japa/runner'
import type { ListingEditInput } from '#listings/validators/listing'
import type { ChangeRequest } from '#listings/services/change_listing'
import { toRecord } from '#listings/services/listing_record'
import { photoChange, exposureNotice } from '#listings/services/listing_rules'
import { AGENCY, APP_ID, listingRow, plan, world } from './fakes.js'

const edit = (input: ListingEditInput): ChangeRequest => ({
  caller: { id: APP_ID },
  agency: AGENCY,
  externalId: 'ext-1',
  change: { kind: 'edit', input },
})

function withListing(overrides: Parameters<typeof listingRow>[0] = {}) {
  const w = world()
  w.store.rows.push(listingRow(overrides))
  return w
}

const issues = (result: { ok: boolean; details?: unknown }) =>
  result.ok ? [] : (result.details as { field: string; issue: string }[])

test.group('ChangeListing: members fixed at creation', () => {
  test('another Version, Modelo, Marca, Transmision, Propulsion or ExternalId: invalid, keyed by each, nothing written', async ({
    assert,
  }) => {
    const w = withListing()
    const result = await w.changer.execute(
      edit({
        externalId: 'EXT-2',
        brand: 'Ford',
        model: 'Focus',
        version: '1.6 S',
        transmission: 'Manual',
        propulsion: 'Diésel',
        colour: 'Rojo',
      })
    )
    assert.deepEqual(issues(result), [
      { field: 'externalId', issue: 'fixed' },
      { field: 'transmission', issue: 'fixed' },
      { field: 'propulsion', issue: 'fixed' },
      { field: 'brand', issue: 'fixed' },
      { field: 'model', issue: 'fixed' },
      { field: 'version', issue: 'fixed' },
    ])
    assert.notInclude(w.store.calls, 'update')
    assert.equal(w.store.rows[0].revision, 5)
  })

  test('the stored values as GET shows them, in any case: accepted, nothing written', async ({
    assert,
  }) => {
    const w = withListing()
    const result = await w.changer.execute(
      edit({
        externalId: 'ext-1',
        brand: 'TOYOTA',
        model: 'corolla',
        version: '2.0 xei cvt',
        transmission: 'Automática',
        propulsion: 'Nafta',
      })
    )
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.record.listing.revision, 5)
    assert.deepEqual(result.ok && result.value.notices, [])
    // Null asks for the version's own value: nothing to compare.
    const nulls = await w.changer.execute(edit({ transmission: null, propulsion: null }))
    assert.isTrue(nulls.ok)
  })

  test('a name spelled otherwise is asked of the catalogue: the same entry passes, another fails', async ({
    assert,
  }) => {
    // The fake catalogue knows "Toyota" / "Corolla" / "2.0 XEI CVT" exactly; the listing stores them
    // under other spellings, so only the catalogue can tell they are the same entries.
    const w = withListing({ brandName: 'Toyota Motor', modelName: 'Corolla Sedán' })
    const same = await w.changer.execute(edit({ brand: 'Toyota', model: 'Corolla' }))
    assert.isTrue(same.ok)
    const other = await w.changer.execute(edit({ brand: 'Toyota', model: 'Etios' }))
    assert.deepEqual(issues(other), [{ field: 'model', issue: 'fixed' }])
    // A version outside the catalogue is compared by name only.
    const free = withListing({ versionId: null, versionName: 'Edición especial' })
    assert.isTrue((await free.changer.execute(edit({ version: 'EDICIÓN ESPECIAL' }))).ok)
    assert.deepEqual(issues(await free.changer.execute(edit({ version: '2.0 XEI CVT' }))), [
      { field: 'version', issue: 'fixed' },
    ])
  })

  test('DatosTecnicosCustom of a catalogue version: the list it shows passes; another is ignored with a notice; free outside the catalogue', async ({
    assert,
  }) => {
    const specs = [{ name: 'Potencia', value: '170 CV' }]
    const w = withListing({ customSpecs: specs })
    const same = await w.changer.execute(edit({ customSpecs: specs }))
    assert.deepEqual(same.ok && same.value.notices, [])
    const other = await w.changer.execute(
      edit({ customSpecs: [{ name: 'Potencia', value: '1 CV' }] })
    )
    assert.deepEqual(other.ok && other.value.notices, [
      { field: 'customSpecs', issue: 'catalogue_version' },
    ])
    assert.equal(other.ok && other.value.record.listing.revision, 5, 'nothing written')

    const free = withListing({ versionId: null, customSpecs: specs })
    const changed = await free.changer.execute(
      edit({ customSpecs: [{ name: 'Potencia', value: '1 CV' }] })
    )
    assert.deepEqual(changed.ok && changed.value.notices, [])
    assert.equal(changed.ok && changed.value.record.listing.revision, 6)
  })

  test('a stock sync’s probe: another Version is a failure to run, the same one SinCambios', async ({
    assert,
  }) => {
    const w = withListing()
    const current = toRecord(w.store.rows[0])
    assert.isNull(await w.changer.unchanged(edit({ version: '2.0 SEG CVT' }), current))
    assert.deepEqual(await w.changer.unchanged(edit({ version: '2.0 XEI CVT' }), current), {
      notices: [],
    })
  })
})

test.group('ChangeListing: photos the representation shows (GET → PUT)', () => {
  test('2 pending or rejected photos beside 2 processed: the 2 shown sent back change nothing', async ({
    assert,
  }) => {
    const w = withListing({
      mileage: 30_000,
      year: 2020,
      photoCount: 4,
      photoKeys: ['1/a.jpg', '1/b.jpg'],
    })
    const record = toRecord(w.store.rows[0])
    const result = await w.changer.execute(edit({ photos: record.photoUrls }))
    assert.isTrue(result.ok)
    assert.lengthOf(w.photoSet.installs, 0)
    assert.equal(result.ok && result.value.record.listing.revision, 5)
    assert.deepEqual(result.ok && result.value.notices, [])
    assert.deepEqual(w.photoSet.reads, [], 'no read of the sources')

    // None processed yet: the empty list GET shows is no change either.
    const pending = withListing({ mileage: 30_000, year: 2020, photoCount: 2 })
    const empty = await pending.changer.execute(edit({ photos: [] }))
    assert.isTrue(empty.ok)
    assert.lengthOf(pending.photoSet.installs, 0)
  })

  test('the same length as all the photos (not the shown ones): ignored, with a notice; the list as sent: no notice', async ({
    assert,
  }) => {
    const w = withListing({ mileage: 30_000, year: 2020, photoCount: 2 })
    w.photoSet.sent.set(1, ['https://a', 'https://b'])
    const ignored = await w.changer.execute(edit({ photos: ['https://c', 'https://d'] }))
    assert.deepEqual(ignored.ok && ignored.value.notices, [
      { field: 'photos', issue: 'same_count' },
    ])
    assert.lengthOf(w.photoSet.installs, 0)
    const same = await w.changer.execute(edit({ photos: ['https://a', 'https://b'] }))
    assert.deepEqual(same.ok && same.value.notices, [])
    // Another length replaces them, as the spec says.
    const replaced = await w.changer.execute(edit({ photos: ['https://c'] }))
    assert.deepEqual(replaced.ok && replaced.value.notices, [])
    assert.lengthOf(w.photoSet.installs, 1)
  })

  test('photoChange: none / ignored / replace at each edge', ({ assert }) => {
    const listing = { shown: ['s1'], count: 2, sources: ['a', 'b'] }
    assert.equal(photoChange(undefined, listing), 'none')
    assert.equal(photoChange(null, listing), 'none')
    assert.equal(photoChange(['s1'], listing), 'none')
    assert.equal(photoChange(['a', 'b'], listing), 'none')
    assert.equal(photoChange(['b', 'a'], listing), 'ignored')
    assert.equal(photoChange(['x', 'y'], { ...listing, sources: undefined }), 'ignored')
    assert.equal(photoChange(['x'], listing), 'replace')
    assert.equal(photoChange(['x', 'y', 'z'], listing), 'replace')
  })
})

test.group('Notices of an exposure the plan had no quota for', () => {
  test('Alta asked with the Alta quota full: Media, with a notice; with room: Alta, none', async ({
    assert,
  }) => {
    const w = withListing({ state: 'active', exposure: 'low' })
    w.directory.planView = plan(10, 1, 1, 1)
    const granted = await w.changer.execute(edit({ exposure: 'high' }))
    assert.deepEqual(granted.ok && granted.value.notices, [])

    const full = withListing({ state: 'active', exposure: 'low' })
    full.directory.planView = plan(10, 1, 1, 1)
    full.store.addActive(1, 'high')
    const lowered = await full.changer.execute(edit({ exposure: 'high' }))
    assert.equal(lowered.ok && lowered.value.record.listing.exposure, 'medium')
    assert.deepEqual(lowered.ok && lowered.value.notices, [
      { field: 'exposure', issue: 'quota_full', requested: 'high', given: 'medium' },
    ])
  })

  test('a creation asking Alta with the quota full: the notice comes with it (one and many)', async ({
    assert,
  }) => {
    const w = world()
    w.directory.planView = plan(10, 1, 5, 5)
    w.store.addActive(1, 'high')
    const input = {
      externalId: 'NEW-1',
      brand: 'Toyota',
      model: 'Corolla',
      version: '2.0 XEI CVT',
      mileage: 0,
      exposure: 'high' as const,
    }
    const one = await w.creator.execute({ id: APP_ID }, AGENCY, input)
    assert.deepEqual(one.ok && one.value.notices, [
      { field: 'exposure', issue: 'quota_full', requested: 'high', given: 'medium' },
    ])
    const many = await w.unitOfWork.run((tx) =>
      w.creator.many(
        { id: APP_ID },
        AGENCY,
        [
          { ...input, externalId: 'NEW-2' },
          { ...input, externalId: 'NEW-3', exposure: null },
        ],
        tx
      )
    )
    assert.deepEqual(
      many.map((result) =>
        result.ok ? result.value.notices.map((notice) => notice.field) : result.reason
      ),
      [['exposure'], []]
    )
  })

  test('exposureNotice: asked (or kept) and given differ → notice; null asks for the best → none', ({
    assert,
  }) => {
    assert.isNull(exposureNotice('high', 'low', 'high'))
    assert.isNotNull(exposureNotice('high', 'low', 'medium'))
    assert.isNotNull(exposureNotice(undefined, 'high', 'medium'))
    assert.isNull(exposureNotice(undefined, 'high', 'high'))
    assert.isNull(exposureNotice(null, 'high', 'low'))
    assert.isNull(exposureNotice(undefined, undefined, 'low'))
  })
})
