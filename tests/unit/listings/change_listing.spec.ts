/*
 * ChangeListing and ApplyEdit alone (no PostgreSQL): every rule of a change on
 * both sides of its edge, and which locks and transaction each change takes.
 * The fakes are in ./fakes.ts; `store.calls` shows " (tx)" for work done in
 * the unit of work, so "no transaction" is `unitOfWork.committed === 0`.
 */
import { test } from '@japa/runner'
import type { ListingEditInput } from '#listings/validators/listing'
import type { Change, ChangeRequest } from '#listings/services/change_listing'
import { toRecord } from '#listings/services/listing_record'
import { ADMIN, AGENCY, APP_ID, COLLAB, OTHER_APP_ID, listingRow, plan, world } from './fakes.js'

const request = (change: Change, extra: Partial<ChangeRequest> = {}): ChangeRequest => ({
  caller: { id: APP_ID },
  agency: AGENCY,
  externalId: 'ext-1',
  change,
  ...extra,
})
const edit = (input: ListingEditInput, extra: Partial<ChangeRequest> = {}) =>
  request({ kind: 'edit', input }, extra)
const partial = (input: ListingEditInput) => request({ kind: 'partial', input })
const activate = request({ kind: 'state', active: true })
const suspend = request({ kind: 'state', active: false })

/** A world holding one listing of the app (`listingRow` with `overrides`). */
function withListing(overrides: Parameters<typeof listingRow>[0] = {}) {
  const w = world()
  w.store.rows.push(listingRow(overrides))
  return w
}

const reasonOf = (result: { ok: boolean; reason?: string }) => (result.ok ? 'ok' : result.reason)
/** The issue names of an `invalid` failure. */
const issuesOf = (result: { ok: boolean; details?: unknown }) =>
  result.ok ? [] : ((result.details ?? []) as { issue: string }[]).map((item) => item.issue)

test.group('ChangeListing: plan capacity (activations count under the agency lock)', () => {
  test('activar with one place left activates, counting under the lock', async ({ assert }) => {
    const w = withListing({ state: 'suspended' })
    w.directory.planView = plan(3)
    w.store.addActive(2)
    const result = await w.changer.execute(activate)
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.record.listing.state, 'active')
    assert.includeMembers(w.store.calls, ['holdActivations (tx)', 'activeByExposure (tx)'])
    assert.equal(w.unitOfWork.committed, 1)
  })

  test('activar with the plan full fails plan_full naming the capacity', async ({ assert }) => {
    const w = withListing({ state: 'suspended' })
    w.directory.planView = plan(2)
    w.store.addActive(2)
    const result = await w.changer.execute(activate)
    assert.equal(reasonOf(result), 'plan_full')
    assert.deepEqual(!result.ok && result.details, { capacity: 2 })
    assert.equal(w.store.rows[0].state, 'suspended')
  })

  test('an edit keeping a listing suspended counts nothing, plan full or not', async ({
    assert,
  }) => {
    const w = withListing({ state: 'suspended' })
    w.directory.planView = plan(1, 0, 0, 0)
    w.store.addActive(1)
    const result = await w.changer.execute(edit({ active: false, colour: 'Rojo' }))
    assert.isTrue(result.ok)
    assert.notInclude(w.store.calls, 'holdActivations (tx)')
    assert.equal(w.unitOfWork.committed, 0, 'no transaction')
  })

  test('the listing itself is not counted against its own place', async ({ assert }) => {
    const w = withListing({ state: 'active', exposure: 'low' })
    w.directory.planView = plan(1, 0, 1, 1)
    // Moving level counts, but only the others: the agency's one place is this listing's.
    const result = await w.changer.execute(edit({ exposure: 'medium' }))
    assert.equal(result.ok && result.value.record.listing.exposure, 'medium')
  })
})

test.group('ChangeListing: exposure quotas (Alta / Media / Baja)', () => {
  test('the level asked for while its quota has room', async ({ assert }) => {
    const w = withListing({ state: 'active', exposure: 'low' })
    w.directory.planView = plan(10, 1, 1, 1)
    const result = await w.changer.execute(edit({ exposure: 'high' }))
    assert.equal(result.ok && result.value.record.listing.exposure, 'high')
    assert.include(w.store.calls, 'holdActivations (tx)', 'a level change counts under the lock')
  })

  test('a full Alta quota gives the best level with room (Media)', async ({ assert }) => {
    const w = withListing({ state: 'active', exposure: 'low' })
    w.directory.planView = plan(10, 1, 1, 1)
    w.store.addActive(1, 'high')
    const result = await w.changer.execute(edit({ exposure: 'high' }))
    assert.equal(result.ok && result.value.record.listing.exposure, 'medium')
  })

  test('Alta and Media full: Baja; every quota full: no_quota', async ({ assert }) => {
    const w = withListing({ state: 'suspended', exposure: 'high' })
    w.directory.planView = plan(10, 1, 1, 1)
    w.store.addActive(1, 'high')
    w.store.addActive(1, 'medium')
    const low = await w.changer.execute(edit({ exposure: null }))
    assert.equal(low.ok && low.value.record.listing.exposure, 'low')

    const full = withListing({ state: 'suspended', exposure: 'high' })
    full.directory.planView = plan(10, 1, 1, 1)
    for (const level of ['high', 'medium', 'low'] as const) full.store.addActive(1, level)
    const refused = await full.changer.execute(edit({ exposure: null }))
    assert.equal(reasonOf(refused), 'no_quota')
  })

  test('an active listing keeping its level takes no lock and no transaction', async ({
    assert,
  }) => {
    const w = withListing({ state: 'active', exposure: 'high' })
    w.directory.planView = plan(1, 1, 0, 0)
    const result = await w.changer.execute(edit({ colour: 'Azul' }))
    assert.equal(result.ok && result.value.record.listing.colour, 'Azul')
    // One read and one UPDATE, none of them in a transaction or under a lock.
    assert.sameMembers(w.store.calls, ['findByAdminMail', 'update'])
    assert.equal(w.unitOfWork.committed, 0)
  })

  test('a suspended listing picks a level without needing room', async ({ assert }) => {
    const w = withListing({ state: 'suspended', exposure: 'high' })
    w.directory.planView = plan(10, 0, 0, 0)
    const result = await w.changer.execute(edit({ active: false, exposure: 'medium' }))
    assert.equal(result.ok && result.value.record.listing.exposure, 'medium')
  })
})

test.group('ChangeListing: operator handover', () => {
  test('an unchanged operator needs no handover lock (any case of its e-mail)', async ({
    assert,
  }) => {
    const w = withListing({ operatorId: COLLAB.id, operatorEmail: COLLAB.email, phone: '2222' })
    const result = await w.changer.execute(edit({ operatorEmail: 'COLAB@agencia.example' }))
    assert.isTrue(result.ok)
    assert.notInclude(w.directory.calls, 'holdMembers (try)')
    assert.equal(w.unitOfWork.committed, 0, 'no transaction either')
  })

  test('naming the administrator needs no handover lock', async ({ assert }) => {
    const w = withListing({ operatorId: COLLAB.id, operatorEmail: COLLAB.email, phone: '2222' })
    const result = await w.changer.execute(edit({ operatorEmail: ADMIN.email }))
    assert.equal(result.ok && result.value.record.listing.operatorId, ADMIN.id)
    assert.deepEqual(
      w.directory.calls.filter((call) => call.startsWith('holdMembers')),
      []
    )
  })

  test('a newly named collaborator takes the handover lock (without waiting) in a transaction', async ({
    assert,
  }) => {
    const w = withListing()
    const result = await w.changer.execute(edit({ operatorEmail: COLLAB.email }))
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.record.listing.operatorId, COLLAB.id)
    assert.equal(result.ok && result.value.record.listing.phone, '2222', 'the phone follows')
    assert.include(w.directory.calls, 'holdMembers (try)')
    assert.include(w.store.calls, 'find for update (tx)')
    assert.equal(w.unitOfWork.committed, 1)
  })

  test('while a desasociar runs: retried waiting for it before taking the row', async ({
    assert,
  }) => {
    const w = withListing()
    w.directory.detaching = true
    const result = await w.changer.execute(edit({ operatorEmail: COLLAB.email }))
    assert.equal(result.ok && result.value.record.listing.operatorId, COLLAB.id)
    assert.deepEqual(
      w.directory.calls.filter((call) => call.startsWith('holdMembers')),
      ['holdMembers (try)', 'holdMembers (wait)']
    )
  })

  test('someone who is not a member keeps the current responsible', async ({ assert }) => {
    const w = withListing({ operatorId: COLLAB.id, operatorEmail: COLLAB.email, phone: '3333' })
    const result = await w.changer.execute(edit({ operatorEmail: 'nadie@example.com' }))
    assert.equal(result.ok && result.value.record.listing.operatorId, COLLAB.id)
    assert.equal(result.ok && result.value.record.listing.phone, '3333', 'a valid phone is kept')
  })

  test('a phone that is not the responsible’s is invalid; one of theirs is taken', async ({
    assert,
  }) => {
    const w = withListing({ operatorId: COLLAB.id, operatorEmail: COLLAB.email, phone: '2222' })
    const refused = await w.changer.execute(edit({ phone: '1111' }))
    assert.equal(reasonOf(refused), 'invalid')
    assert.deepEqual(!refused.ok && refused.details, [{ field: 'phone', issue: 'not_of_operator' }])
    const taken = await w.changer.execute(edit({ phone: '3333' }))
    assert.equal(taken.ok && taken.value.record.listing.phone, '3333')
  })
})

test.group('ChangeListing: photos and the vehicle', () => {
  test('a used vehicle without photos is invalid; with photos they are installed in a transaction', async ({
    assert,
  }) => {
    const w = withListing({ year: 2020 })
    const refused = await w.changer.execute(edit({ mileage: 30_000 }))
    assert.deepEqual(!refused.ok && refused.details, [{ field: 'photos', issue: 'required' }])
    assert.lengthOf(w.photoSet.installs, 0)

    const urls = ['https://fotos.example/1.jpg']
    const result = await w.changer.execute(edit({ mileage: 30_000, photos: urls }))
    assert.isTrue(result.ok)
    assert.deepEqual(w.photoSet.installs, [{ listingId: 1, urls }])
    assert.equal(w.unitOfWork.committed, 1)
  })

  test('a photo list of the same length is ignored (no install, no transaction)', async ({
    assert,
  }) => {
    const w = withListing({ photoCount: 2 })
    const result = await w.changer.execute(edit({ photos: ['a', 'b'] }))
    assert.isTrue(result.ok)
    assert.lengthOf(w.photoSet.installs, 0)
    assert.equal(w.unitOfWork.committed, 0)
    const changed = await w.changer.execute(edit({ photos: ['a', 'b', 'c'] }))
    assert.isTrue(changed.ok)
    assert.lengthOf(w.photoSet.installs, 1)
  })

  test('mileage: 0 km of an old year and more than 100 000 km per year are invalid', async ({
    assert,
  }) => {
    const w = withListing({ photoCount: 1 })
    const old = await w.changer.execute(edit({ year: 2015, mileage: 0 }))
    assert.deepEqual(issuesOf(old), ['zero_when_used'])
    const age = new Date().getFullYear() - 2024
    const ceiling = 100_000 * Math.max(1, age)
    const over = await w.changer.execute(edit({ year: 2024, mileage: ceiling + 1 }))
    assert.deepEqual(issuesOf(over), ['implausible'])
    const atCeiling = await w.changer.execute(edit({ year: 2024, mileage: ceiling }))
    assert.isTrue(atCeiling.ok)
  })

  test('the used-vehicle warranty certificate: refused on 0 km, kept on a used one', async ({
    assert,
  }) => {
    const w = withListing({ photoCount: 1 })
    const refused = await w.changer.execute(edit({ warrantyCertificate: true }))
    assert.deepEqual(!refused.ok && refused.details, [
      { field: 'warrantyCertificate', issue: 'new_vehicle' },
    ])
    const used = await w.changer.execute(
      edit({ warrantyCertificate: true, mileage: 10_000, year: 2024 })
    )
    assert.equal(used.ok && used.value.record.listing.warrantyCertificate, true)
  })

  test('Locacion naming the listing’s own place is not resolved again; another one is', async ({
    assert,
  }) => {
    const w = withListing({
      regionId: 2,
      regionName: 'Buenos Aires',
      cityId: 20,
      cityName: 'La Plata',
    })
    const same = { region: 'buenos aires', city: 'LA PLATA', address: 'Calle 1' }
    const kept = await w.changer.execute(edit({ location: same }))
    assert.equal(kept.ok && kept.value.record.listing.address, 'Calle 1')
    assert.deepEqual(w.places.calls, [])

    const unknown = await w.changer.execute(
      edit({ location: { region: 'Córdoba', city: null, address: null } })
    )
    assert.deepEqual(!unknown.ok && unknown.details, [
      { field: 'region', issue: 'not_found', value: 'Córdoba' },
    ])
    assert.deepEqual(w.places.calls, ['region Córdoba'])
    assert.equal(w.unitOfWork.committed, 0, 'resolved outside any transaction')
  })
})

test.group('ChangeListing: states', () => {
  test('suspender and activar move between active and suspended', async ({ assert }) => {
    const w = withListing()
    const suspended = await w.changer.execute(suspend)
    assert.equal(suspended.ok && suspended.value.record.listing.state, 'suspended')
    const active = await w.changer.execute(activate)
    assert.equal(active.ok && active.value.record.listing.state, 'active')
    assert.equal(w.store.rows[0].revision, 7)
  })

  test('a state already in place answers the row without writing', async ({ assert }) => {
    const w = withListing({ state: 'active', revision: 5 })
    const result = await w.changer.execute(activate)
    assert.equal(result.ok && result.value.record.listing.revision, 5)
    assert.notInclude(w.store.calls, 'update')
  })

  test('archived is terminal: every kind of change fails archived', async ({ assert }) => {
    const w = withListing({ state: 'archived' })
    for (const change of [activate, suspend, edit({ colour: 'Rojo' }), partial({})]) {
      assert.equal(reasonOf(await w.changer.execute(change)), 'archived')
    }
    assert.equal(reasonOf(await w.changer.execute(request({ kind: 'archive' }))), 'archived')
    assert.equal(w.store.rows[0].revision, 5)
  })

  test('DELETE archives an active or suspended listing', async ({ assert }) => {
    for (const state of ['active', 'suspended'] as const) {
      const w = withListing({ state })
      const result = await w.changer.execute(request({ kind: 'archive' }))
      assert.equal(result.ok && result.value.record.listing.state, 'archived', state)
    }
  })

  test('a suspended agency cannot activate; a suspended responsible neither; both fine otherwise', async ({
    assert,
  }) => {
    const agency = withListing({ state: 'suspended' })
    agency.directory.suspended.agency = true
    assert.equal(reasonOf(await agency.changer.execute(activate)), 'agency_suspended')
    assert.equal(agency.store.rows[0].state, 'suspended')

    const person = withListing({ state: 'suspended' })
    person.directory.suspended.operator = true
    assert.equal(reasonOf(await person.changer.execute(edit({}))), 'operator_suspended')

    const neither = withListing({ state: 'suspended' })
    assert.isTrue((await neither.changer.execute(activate)).ok)
    assert.include(neither.directory.calls, 'holdSuspensions')
  })

  test('suspending under a suspended agency is allowed and checks no suspension', async ({
    assert,
  }) => {
    const w = withListing({ state: 'active' })
    w.directory.suspended.agency = true
    const result = await w.changer.execute(suspend)
    assert.equal(result.ok && result.value.record.listing.state, 'suspended')
    assert.notInclude(w.directory.calls, 'holdSuspensions')
  })

  test('PUT defaults Activa to true; PATCH’s null keeps the state', async ({ assert }) => {
    const put = withListing({ state: 'suspended' })
    const activated = await put.changer.execute(edit({ colour: 'Verde' }))
    assert.equal(activated.ok && activated.value.record.listing.state, 'active')

    const patch = withListing({ state: 'suspended' })
    const kept = await patch.changer.execute(partial({ active: null, colour: 'Verde' }))
    assert.equal(kept.ok && kept.value.record.listing.state, 'suspended')
  })

  test('a change the app did not ask for writes its state event in the transaction', async ({
    assert,
  }) => {
    const w = withListing({ state: 'active' })
    const result = await w.changer.execute({ ...suspend, cause: 'administration' })
    assert.isTrue(result.ok)
    assert.deepEqual(w.events.stateChanges, [
      { listingId: 1, to: 'suspended', cause: 'administration' },
    ])
    assert.equal(w.unitOfWork.committed, 1)
    // The app's own change sends nothing.
    await w.changer.execute(activate)
    assert.lengthOf(w.events.stateChanges, 1)
  })
})

test.group('ChangeListing: visibility', () => {
  test('another app’s listing of the agency is not_found, as a missing one', async ({ assert }) => {
    const w = withListing({ appId: OTHER_APP_ID })
    assert.equal(reasonOf(await w.changer.execute(edit({ colour: 'Rojo' }))), 'not_found')
    assert.equal(reasonOf(await w.changer.execute(activate)), 'not_found')
    assert.equal(w.store.rows[0].colour, 'Gris')

    const own = withListing()
    assert.isTrue((await own.changer.execute(edit({ colour: 'Rojo' }))).ok)
  })

  test('a listing of another agency is not_found', async ({ assert }) => {
    const w = withListing({ agencyId: 99, adminEmail: 'otra-agencia@example.com' })
    assert.equal(reasonOf(await w.changer.execute(request({ kind: 'archive' }))), 'not_found')
  })
})

test.group('ChangeListing: If-Match and the revision guard', () => {
  test('If-Match of the current revision applies; a stale or weak one fails precondition', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5 })
    const stale = await w.changer.execute(edit({ colour: 'Rojo' }, { ifMatch: ['"1.4"'] }))
    assert.equal(reasonOf(stale), 'precondition')
    const weak = await w.changer.execute(edit({ colour: 'Rojo' }, { ifMatch: ['W/"1.5"'] }))
    assert.equal(reasonOf(weak), 'precondition')
    const current = await w.changer.execute(edit({ colour: 'Rojo' }, { ifMatch: ['"1.5"'] }))
    assert.equal(current.ok && current.value.record.listing.revision, 6)
    const any = await w.changer.execute(edit({ colour: 'Azul' }, { ifMatch: ['*'] }))
    assert.equal(any.ok && any.value.record.listing.revision, 7)
  })

  test('a write racing another writer: with If-Match precondition, without it applied once after', async ({
    assert,
  }) => {
    const guarded = withListing({ revision: 5 })
    guarded.store.beforeUpdate = (row) => (row.revision += 1)
    const lost = await guarded.changer.execute(edit({ colour: 'Rojo' }, { ifMatch: ['"1.5"'] }))
    assert.equal(reasonOf(lost), 'precondition')

    const plain = withListing({ revision: 5 })
    plain.store.beforeUpdate = (row) => (row.revision += 1)
    const applied = await plain.changer.execute(edit({ colour: 'Rojo' }))
    assert.equal(applied.ok && applied.value.record.listing.revision, 7)
    assert.equal(applied.ok && applied.value.record.listing.colour, 'Rojo')
    // Lost without a lock (revision 6 by then), then applied holding the row (7).
    assert.sameMembers(plain.store.calls, [
      'findByAdminMail',
      'update',
      'find for update (tx)',
      'update (tx)',
    ])
    assert.equal(plain.unitOfWork.committed, 1)
  })

  test('a write that keeps losing under the row lock gives up after 3 tries', async ({
    assert,
  }) => {
    const w = withListing()
    const bump = () => {
      w.store.beforeUpdate = (row) => {
        row.revision += 1
        bump()
      }
    }
    bump()
    assert.equal(
      reasonOf(await w.changer.execute(edit({ colour: 'Rojo' }))),
      'changed_concurrently'
    )
    assert.lengthOf(
      w.store.calls.filter((call) => call === 'update (tx)'),
      3
    )
  })

  test('a stale handed row never decides the answer; a fresh one saves the read', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5 })
    const key = w.writers.key(APP_ID, AGENCY.id, 'EXT-1')
    const stale = toRecord(listingRow({ revision: 4, state: 'archived' }))
    w.writers.hand(key, stale)
    const result = await w.changer.execute(edit({ colour: 'Rojo' }, { ifMatch: ['"1.5"'] }))
    assert.equal(result.ok && result.value.record.listing.revision, 6)
    assert.isFalse(w.writers.holds(key), 'a handed row is used once')

    w.writers.hand(key, toRecord({ ...w.store.rows[0] }))
    w.store.calls = []
    const fresh = await w.changer.execute(edit({ colour: 'Azul' }))
    assert.equal(fresh.ok && fresh.value.record.listing.revision, 7)
    assert.deepEqual(w.store.calls, ['update'], 'no read')
  })

  test('a stale handed row without If-Match loses its UPDATE; the edit applies once on a fresh read, without a lock', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5 })
    const key = w.writers.key(APP_ID, AGENCY.id, 'ext-1')
    w.writers.hand(key, toRecord(listingRow({ revision: 4 })))
    const result = await w.changer.execute(edit({ colour: 'Rojo' }))
    assert.equal(result.ok && result.value.record.listing.revision, 6)
    // The guess's UPDATE lost, one fresh read, the UPDATE that won: no transaction, no lock.
    assert.sameMembers(w.store.calls, ['update', 'findByAdminMail', 'update'])
    assert.equal(w.unitOfWork.committed, 0)
  })

  test('a state change ignores a handed row', async ({ assert }) => {
    const w = withListing({ state: 'active' })
    const key = w.writers.key(APP_ID, AGENCY.id, 'ext-1')
    w.writers.hand(key, toRecord(listingRow({ state: 'suspended' })))
    const result = await w.changer.execute(suspend)
    assert.equal(result.ok && result.value.record.listing.state, 'suspended')
    assert.equal(w.store.rows[0].state, 'suspended')
  })
})

test.group('ChangeListing: a write that changes nothing (docs/design.md §19)', () => {
  const priced = {
    priceCurrency: 'USD',
    priceAmount: 100,
    downPaymentCurrency: 'USD',
    downPaymentAmount: 10,
  }

  test('PUT with the values the listing has: same revision, no UPDATE, no transaction, no event', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5, colour: 'Gris', description: 'Igual' })
    const result = await w.changer.execute(
      edit({ colour: 'Gris', description: 'Igual', active: true, exposure: 'high' })
    )
    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.record.listing.revision, 5)
    assert.notInclude(w.store.calls, 'update')
    assert.equal(w.unitOfWork.committed, 0)
    assert.deepEqual(w.events.stateChanges, [])
    assert.equal(w.store.rows[0].revision, 5)
  })

  test('PUT changing one value: the revision moves by one', async ({ assert }) => {
    const w = withListing({ revision: 5, colour: 'Gris', description: 'Igual' })
    const result = await w.changer.execute(edit({ colour: 'Rojo', description: 'Igual' }))
    assert.equal(result.ok && result.value.record.listing.revision, 6)
    assert.include(w.store.calls, 'update')
  })

  test('PATCH of the prices it has: no UPDATE; one changed price next to an unchanged one: +1', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5, ...priced })
    const same = await w.changer.execute(
      partial({
        price: { currency: 'USD', amount: 100 },
        downPayment: { currency: 'USD', amount: 10 },
      })
    )
    assert.equal(same.ok && same.value.record.listing.revision, 5)
    assert.notInclude(w.store.calls, 'update')

    const changed = await w.changer.execute(
      partial({
        price: { currency: 'USD', amount: 90 },
        downPayment: { currency: 'USD', amount: 10 },
      })
    )
    assert.equal(changed.ok && changed.value.record.listing.revision, 6)
    assert.equal(w.store.rows[0].priceAmount, 90)
    assert.equal(w.store.rows[0].downPaymentAmount, 10)
  })

  test('PATCH setting a stored price to null, or activating a suspended listing, is a change', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5, ...priced })
    const cleared = await w.changer.execute(partial({ downPayment: null }))
    assert.equal(cleared.ok && cleared.value.record.listing.revision, 6)

    const s = withListing({ revision: 5, state: 'suspended' })
    const activated = await s.changer.execute(partial({ active: true }))
    assert.equal(activated.ok && activated.value.record.listing.revision, 6)
    const again = await s.changer.execute(partial({ active: true }))
    assert.equal(again.ok && again.value.record.listing.revision, 6, 'already active: nothing')
  })

  test('a no-op answered from a handed row reads afresh first (the guess may be stale)', async ({
    assert,
  }) => {
    const w = withListing({ revision: 5, colour: 'Rojo' })
    const key = w.writers.key(APP_ID, AGENCY.id, 'ext-1')
    // The guess says Gris at revision 4; the stored row is Rojo at 5.
    w.writers.hand(key, toRecord(listingRow({ revision: 4, colour: 'Gris' })))
    const result = await w.changer.execute(edit({ colour: 'Gris' }))
    assert.equal(result.ok && result.value.record.listing.colour, 'Gris')
    assert.equal(result.ok && result.value.record.listing.revision, 6)
    assert.sameMembers(w.store.calls, ['findByAdminMail', 'update'])
  })
})

test.group('ChangeListing: the probe (a stock sync row that may change nothing)', () => {
  test('no change: SinCambios from the caller’s read, with no read, write, lock or transaction of its own', async ({
    assert,
  }) => {
    const w = withListing({ state: 'active', exposure: 'high', colour: 'Rojo' })
    w.directory.planView = plan(1, 1, 0, 0)
    const current = toRecord({ ...w.store.rows[0] })
    assert.deepEqual(await w.changer.unchanged(edit({ colour: 'Rojo' }), current), {
      notices: [],
    })
    assert.deepEqual(w.store.calls, [])
    assert.equal(w.unitOfWork.committed + w.unitOfWork.rolledBack, 0)
    assert.equal(w.store.rows[0].revision, current.listing.revision)
  })

  test('a change, or one that needs the row held (an activation): null, and still nothing written or locked', async ({
    assert,
  }) => {
    const changed = withListing({ state: 'active', exposure: 'high', colour: 'Rojo' })
    changed.directory.planView = plan(1, 1, 0, 0)
    const current = toRecord({ ...changed.store.rows[0] })
    assert.isNull(await changed.changer.unchanged(edit({ colour: 'Azul' }), current))
    assert.deepEqual(changed.store.calls, [])
    assert.equal(changed.store.rows[0].colour, 'Rojo')

    const activating = withListing({ state: 'suspended' })
    const suspended = toRecord({ ...activating.store.rows[0] })
    assert.isNull(await activating.changer.unchanged(edit({}), suspended))
    assert.notInclude(activating.store.calls.join(), 'holdActivations')
    assert.equal(activating.unitOfWork.committed + activating.unitOfWork.rolledBack, 0)
    assert.equal(activating.store.rows[0].state, 'suspended')
  })
})
