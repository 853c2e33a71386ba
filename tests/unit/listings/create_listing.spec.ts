/*
 * CreateListing alone (no PostgreSQL): the vehicle's catalogue match, the edit
 * rules a new listing shares with every change, and the transaction it opens.
 * The fakes are in ./fakes.ts.
 */
import { test } from '@japa/runner'
import type { ListingCreateInput } from '#listings/validators/listing'
import { currentYear } from '#listings/services/listing_rules'
import { AGENCY, APP_ID, COLLAB, COROLLA, listingRow, plan, world } from './fakes.js'

const caller = { id: APP_ID }

/** A valid creation: a 0 km Toyota Corolla of the catalogue, active by default. */
const input = (overrides: Partial<ListingCreateInput> = {}): ListingCreateInput => ({
  externalId: 'NEW-1',
  brand: 'Toyota',
  model: 'Corolla',
  version: COROLLA.name,
  year: currentYear(),
  mileage: 0,
  ...overrides,
})

/** Creates `input(overrides)` for the app in `w`. */
const create = (w: ReturnType<typeof world>, overrides: Partial<ListingCreateInput> = {}) =>
  w.creator.execute(caller, AGENCY, input(overrides))

const reasonOf = (result: { ok: boolean; reason?: string }) => (result.ok ? 'ok' : result.reason)
const detailsOf = (result: { ok: boolean; details?: unknown }) => (result.ok ? [] : result.details)

test.group('CreateListing: the vehicle', () => {
  test('a catalogue version: its data, responsible the administrator, active, in one unit of work', async ({
    assert,
  }) => {
    const w = world()
    const result = await create(w)
    assert.isTrue(result.ok)
    const listing = result.ok ? result.value.record.listing : null
    assert.include(listing, {
      appId: APP_ID,
      agencyId: AGENCY.id,
      adminEmail: AGENCY.adminMail,
      externalId: 'NEW-1',
      versionId: COROLLA.id,
      transmission: COROLLA.transmission,
      state: 'active',
      exposure: 'high',
      operatorId: w.directory.members[0].id,
      revision: 1,
    })
    assert.deepEqual(listing?.customSpecs, [
      { name: 'Potencia', value: '170 CV' },
      { name: 'Cilindrada', value: '1987 cm³' },
      { name: 'Carroceria', value: 'Sedán' },
      { name: 'Segmento', value: 'C' },
    ])
    assert.match(listing!.slug, /^toyota-corolla-\d{4}-[0-9a-z]{8}$/)
    assert.deepEqual(w.store.calls.slice(0, 1), ['externalIdTaken (tx)'])
    assert.include(w.store.calls, 'insert (tx)')
    assert.equal(w.unitOfWork.committed, 1)
  })

  test('an unknown brand or model, or an ambiguous version, is invalid and writes nothing', async ({
    assert,
  }) => {
    const w = world()
    const brand = await create(w, { brand: 'Tesla' })
    assert.deepEqual(detailsOf(brand), [{ field: 'brand', issue: 'not_found', value: 'Tesla' }])
    const model = await create(w, { model: 'Hilux' })
    assert.deepEqual(detailsOf(model), [{ field: 'model', issue: 'not_found', value: 'Hilux' }])
    const version = await create(w, { version: 'Ambigua' })
    assert.deepEqual(detailsOf(version), [
      { field: 'version', issue: 'ambiguous', value: 'Ambigua' },
    ])
    assert.equal(w.unitOfWork.committed, 0)
    assert.lengthOf(w.store.rows, 0)
  })

  test('an unknown version keeps its name and needs year, transmission and propulsion', async ({
    assert,
  }) => {
    const w = world()
    const missing = await create(w, { version: '1.6 Especial', year: undefined })
    assert.deepEqual(detailsOf(missing), [
      { field: 'year', issue: 'required' },
      { field: 'transmission', issue: 'required' },
      { field: 'propulsion', issue: 'required' },
    ])
    const given = await create(w, {
      version: '1.6 Especial',
      transmission: 'Manual',
      propulsion: 'Nafta',
    })
    assert.isTrue(given.ok)
    const listing = given.ok ? given.value.record.listing : null
    assert.include(listing, {
      versionId: null,
      versionName: '1.6 Especial',
      transmission: 'Manual',
    })
  })
})

test.group('CreateListing: rules shared with every change', () => {
  test('an ExternalId the agency already has (any case, any app) is a duplicate', async ({
    assert,
  }) => {
    const w = world()
    w.store.rows.push(listingRow({ appId: 99, externalId: 'new-1' }))
    const result = await create(w)
    assert.equal(reasonOf(result), 'duplicate_external_id')
    assert.notInclude(w.store.calls, 'insert (tx)')
  })

  test('losing the unique index to a concurrent create is a duplicate too', async ({ assert }) => {
    const w = world()
    w.store.insertError = Object.assign(new Error('duplicate key'), {
      code: '23505',
      constraint: 'listings_agency_external',
    })
    const result = await create(w)
    assert.equal(reasonOf(result), 'duplicate_external_id')
    assert.equal(w.unitOfWork.rolledBack, 1)
  })

  test('plan full: an active creation fails plan_full; a suspended one is created without counting', async ({
    assert,
  }) => {
    const w = world()
    w.directory.planView = plan(1)
    w.store.addActive(1)
    const refused = await create(w)
    assert.equal(reasonOf(refused), 'plan_full')
    assert.notInclude(w.store.calls, 'insert (tx)')

    w.store.calls = []
    const suspended = await create(w, { active: false })
    assert.equal(suspended.ok && suspended.value.record.listing.state, 'suspended')
    assert.notInclude(w.store.calls, 'holdActivations (tx)')

    const room = world()
    room.directory.planView = plan(2)
    room.store.addActive(1)
    assert.isTrue((await create(room)).ok)
  })

  test('exposure: the level asked for with room, else the best left, none left → no_quota', async ({
    assert,
  }) => {
    const w = world()
    w.directory.planView = plan(10, 1, 1, 0)
    w.store.addActive(1, 'high')
    const medium = await create(w, { exposure: 'high' })
    assert.equal(medium.ok && medium.value.record.listing.exposure, 'medium')
    const none = await create(w, { externalId: 'NEW-2', exposure: 'low' })
    assert.equal(reasonOf(none), 'no_quota')
  })

  test('a suspended agency or responsible cannot create an active listing, only a suspended one', async ({
    assert,
  }) => {
    const agency = world()
    agency.directory.suspended.agency = true
    assert.equal(reasonOf(await create(agency)), 'agency_suspended')
    assert.isTrue((await create(agency, { active: false })).ok)

    const person = world()
    person.directory.suspended.operator = true
    const refused = await create(person, { operatorEmail: COLLAB.email })
    assert.equal(reasonOf(refused), 'operator_suspended')
  })

  test('a named collaborator is responsible; the new listing waits for a running desasociar', async ({
    assert,
  }) => {
    const w = world()
    w.directory.detaching = true
    const result = await create(w, { operatorEmail: COLLAB.email })
    assert.equal(result.ok && result.value.record.listing.operatorId, COLLAB.id)
    assert.deepEqual(
      w.directory.calls.filter((call) => call.startsWith('holdMembers')),
      ['holdMembers (wait)']
    )
  })

  test('a used vehicle needs photos; given, they are installed in the same unit of work', async ({
    assert,
  }) => {
    const w = world()
    const used = { year: 2022, mileage: 40_000 }
    const refused = await create(w, used)
    assert.deepEqual(detailsOf(refused), [{ field: 'photos', issue: 'required' }])
    assert.lengthOf(w.photoSet.installs, 0)

    const urls = ['https://fotos.example/1.jpg', 'https://fotos.example/2.jpg']
    const created = await create(w, { ...used, photos: urls })
    assert.isTrue(created.ok)
    assert.deepEqual(w.photoSet.installs, [
      { listingId: created.ok ? created.value.record.listing.id : -1, urls },
    ])
    assert.equal(created.ok && created.value.record.photoCount, 2)
  })

  test('0 km of an old year, and the warranty certificate on 0 km, are invalid', async ({
    assert,
  }) => {
    const w = world()
    const old = await create(w, {
      version: 'Vieja',
      year: 2010,
      transmission: 'Manual',
      propulsion: 'Nafta',
    })
    assert.deepEqual(detailsOf(old), [{ field: 'mileage', issue: 'zero_when_used', year: 2010 }])
    const certificate = await create(w, { warrantyCertificate: true })
    assert.deepEqual(detailsOf(certificate), [
      { field: 'warrantyCertificate', issue: 'new_vehicle' },
    ])
    assert.lengthOf(w.store.rows, 0)
  })

  test('Locacion is resolved before the unit of work; an unknown city is invalid', async ({
    assert,
  }) => {
    const w = world()
    const unknown = await create(w, {
      location: { region: 'Buenos Aires', city: 'Gotham', address: null },
    })
    assert.deepEqual(detailsOf(unknown), [{ field: 'city', issue: 'not_found', value: 'Gotham' }])
    const known = await create(w, {
      location: { region: null, city: 'La Plata', address: 'Calle 7' },
    })
    assert.include(known.ok ? known.value.record.listing : {}, {
      regionId: 2,
      cityId: 20,
      address: 'Calle 7',
    })
  })
})

test.group('CreateListing: Locacion defaults to the main branch (docs/design.md §19)', () => {
  test('without Locacion: the main branch’s region, city and address', async ({ assert }) => {
    const w = world()
    const result = await create(w)
    assert.include(result.ok ? result.value.record.listing : {}, {
      regionId: 2,
      regionName: 'Buenos Aires',
      cityId: 20,
      cityName: 'La Plata',
      address: 'Calle 7 1234',
    })
    assert.deepEqual(w.agencies.calls, [`branches ${AGENCY.id}`])
  })

  test('with Locacion: kept as sent, the branches not read; Locacion null: none', async ({
    assert,
  }) => {
    const w = world()
    const sent = await create(w, {
      location: { region: 'Buenos Aires', city: null, address: 'Otra 1' },
    })
    assert.include(sent.ok ? sent.value.record.listing : {}, {
      regionId: 2,
      cityId: null,
      address: 'Otra 1',
    })
    const none = await create(w, { externalId: 'NEW-2', location: null })
    assert.include(none.ok ? none.value.record.listing : {}, {
      regionId: null,
      cityId: null,
      address: null,
    })
    assert.deepEqual(w.agencies.calls, [])
  })

  test('an agency without a main branch: no place', async ({ assert }) => {
    const w = world()
    w.agencies.main = null
    const result = await create(w)
    assert.include(result.ok ? result.value.record.listing : {}, {
      regionId: null,
      cityId: null,
      address: null,
    })
  })
})

test.group("CreateListing.many: a stock sync's new listings", () => {
  const many = (w: ReturnType<typeof world>, inputs: ListingCreateInput[]) =>
    w.unitOfWork.run((tx) => w.creator.many(caller, AGENCY, inputs, tx))

  test('the rules of one create for each; the agency read once; one INSERT for all', async ({
    assert,
  }) => {
    const w = world()
    w.store.rows.push(listingRow({ id: 1, externalId: 'TAKEN-1', appId: 99 }))
    const results = await many(w, [
      input({ externalId: 'NEW-1' }),
      input({ externalId: 'taken-1' }),
      input({ externalId: 'NEW-2', brand: 'Marca que no existe' }),
      input({ externalId: 'NEW-3', mileage: 20_000 }), // used without photos
      input({ externalId: 'NEW-4', active: false }),
    ])
    assert.deepEqual(results.map(reasonOf), [
      'ok',
      'duplicate_external_id',
      'invalid',
      'invalid',
      'ok',
    ])
    assert.sameMembers(
      w.store.calls.filter((call) => /insert|takenIn|activeByExposure|holdActivations/.test(call)),
      ['takenIn (tx)', 'holdActivations (tx)', 'activeByExposure (tx)', 'insertMany 2 (tx)'],
      'the count and its lock once for the batch, one INSERT'
    )
    assert.equal(w.directory.calls.filter((call) => call === 'plan').length, 1)
    assert.include(
      w.store.rows.find((row) => row.externalId === 'NEW-4'),
      { state: 'suspended' }
    )
  })

  test('the plan fills up inside the batch: the batch counts its own activations (capacity 2 → the third is plan_full)', async ({
    assert,
  }) => {
    const w = world()
    w.directory.planView = plan(2)
    const results = await many(w, [
      input({ externalId: 'NEW-1' }),
      input({ externalId: 'NEW-2' }),
      input({ externalId: 'NEW-3' }),
      input({ externalId: 'NEW-4', active: false }),
    ])
    assert.deepEqual(results.map(reasonOf), ['ok', 'ok', 'plan_full', 'ok'])
    assert.lengthOf(
      w.store.rows.filter((row) => row.state === 'active'),
      2
    )
  })

  test('exposure quotas count the batch too: 1 Alta place → the second asking Alta gets Media', async ({
    assert,
  }) => {
    const w = world()
    w.directory.planView = plan(10, 1, 10, 10)
    await many(w, [
      input({ externalId: 'NEW-1', exposure: 'high' }),
      input({ externalId: 'NEW-2', exposure: 'high' }),
    ])
    assert.deepEqual(
      w.store.rows.map((row) => [row.externalId, row.exposure]),
      [
        ['NEW-1', 'high'],
        ['NEW-2', 'medium'],
      ]
    )
  })

  test('a unique violation of the one INSERT fails the whole batch (the caller retries one by one)', async ({
    assert,
  }) => {
    const w = world()
    w.store.insertError = Object.assign(new Error('duplicate key'), {
      code: '23505',
      constraint: 'listings_agency_external',
    })
    await assert.rejects(() =>
      many(w, [input({ externalId: 'NEW-1' }), input({ externalId: 'NEW-2' })])
    )
    assert.lengthOf(w.store.rows, 0)
  })
})
