import { test } from '@japa/runner'
import { fail } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import Branch from '#agencies/models/branch'
import type BranchStore from '#agencies/stores/branch_store'
import type { BranchChanges } from '#agencies/stores/branch_store'
import type ResolvePlace from '#agencies/services/resolve_place'
import SaveBranch, { type InvalidBranch } from '#agencies/services/save_branch'
import { problemFor } from '#agencies/http/problems'
import { toBranchInput } from '#agencies/validators/branch_validators'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import { FakePlaces } from './fake_places.js'

const AGENCY = 7

/** Branches over an array; records what each save wrote and on which transaction. */
class FakeBranches implements Pick<BranchStore, 'find' | 'create' | 'update'> {
  created: BranchChanges[] = []
  updated: BranchChanges[] = []
  locked: boolean[] = []
  constructor(public rows: Branch[] = []) {}

  async find(agencyId: number, id: number, tx?: Tx, options: { forUpdate?: boolean } = {}) {
    this.locked.push(tx === FAKE_TX && options.forUpdate === true)
    return this.rows.find((branch) => branch.agencyId === agencyId && branch.id === id) ?? null
  }

  async create(agencyId: number, row: BranchChanges, tx: Tx) {
    assertTx(tx)
    this.created.push(row)
    const branch = new Branch().merge({ ...row, agencyId, id: 100 + this.created.length })
    this.rows.push(branch)
    return branch
  }

  async update(branch: Branch, changes: BranchChanges, tx: Tx) {
    assertTx(tx)
    this.updated.push(changes)
    return branch.merge(changes)
  }
}

function assertTx(tx: Tx) {
  if (tx !== FAKE_TX) throw new Error('written outside the unit of work')
}

function existing(fields: Partial<Branch> = {}) {
  return new Branch().merge({
    id: 3,
    agencyId: AGENCY,
    isMain: true,
    description: 'Casa central',
    email: 'casa@agencia.example',
    phone: '011 4555-0000',
    phoneIsWhatsapp: false,
    regionId: 1,
    cityId: 11,
    address: 'Av. Siempreviva 742',
    sales: true,
    workshop: true,
    parts: false,
    workdayFrom: '09:00:00',
    workdayTo: '18:00:00',
    preHolidayFrom: null,
    preHolidayTo: null,
    holidayFrom: null,
    holidayTo: null,
    afterSalesLeadOwner: null,
    ...fields,
  })
}

function setup(rows: Branch[] = []) {
  const branches = new FakeBranches(rows)
  const places = new FakePlaces()
  const unitOfWork = new FakeUnitOfWork()
  const action = new SaveBranch(
    branches as unknown as BranchStore,
    places as unknown as ResolvePlace,
    unitOfWork as never
  )
  return { action, branches, places, unitOfWork }
}

test.group('SaveBranch: creating', () => {
  test('a new branch is never the main one and sells unless told otherwise', async ({ assert }) => {
    const { action, branches, places, unitOfWork } = setup()
    const saved = await action.execute(AGENCY, null, { description: 'Sucursal Norte' })
    assert.isTrue(saved.ok)
    assert.deepEqual(branches.created, [
      { isMain: false, sales: true, workshop: false, parts: false, description: 'Sucursal Norte' },
    ])
    assert.equal(saved.ok && saved.value.agencyId, AGENCY)
    assert.deepEqual(places.asked, [], 'no place given, no catalogue lookup')
    assert.equal(unitOfWork.committed, 1)
  })

  test('its services are the ones given', async ({ assert }) => {
    const { action, branches } = setup()
    await action.execute(AGENCY, null, {
      description: 'Taller',
      sales: false,
      workshop: true,
      parts: true,
    })
    assert.deepInclude(branches.created[0], {
      isMain: false,
      sales: false,
      workshop: true,
      parts: true,
    })
  })
})

test.group('SaveBranch: editing', () => {
  test('absent fields stay: only what is given is written', async ({ assert }) => {
    const { action, branches, places } = setup([existing()])
    const saved = await action.execute(AGENCY, 3, { address: 'Calle Nueva 1' })
    assert.deepEqual(branches.updated, [{ address: 'Calle Nueva 1' }])
    assert.deepEqual(branches.locked, [true], 'the branch is read FOR UPDATE in the unit of work')
    assert.equal(saved.ok && saved.value.description, 'Casa central')
    assert.isTrue(saved.ok && saved.value.isMain, 'an edit keeps the main flag')
    assert.deepEqual(places.asked, [])
  })

  test("null and '' clear; e-mails are normalized", async ({ assert }) => {
    const { action, branches } = setup([existing()])
    await action.execute(AGENCY, 3, {
      email: null,
      phone: null,
      address: '',
      afterSalesLeadOwner: ' Jefe@Agencia.Example ',
      hours: { weekdays: null },
    })
    assert.deepEqual(branches.updated, [
      {
        email: null,
        phone: null,
        phoneIsWhatsapp: false,
        address: null,
        workdayFrom: null,
        workdayTo: null,
        afterSalesLeadOwner: 'jefe@agencia.example',
      },
    ])
    await action.execute(AGENCY, 3, { email: ' Ventas@Agencia.EXAMPLE', afterSalesLeadOwner: '' })
    assert.deepEqual(branches.updated[1], {
      email: 'ventas@agencia.example',
      afterSalesLeadOwner: null,
    })
  })

  test('a phone in international form is a WhatsApp number, another is not', async ({ assert }) => {
    const { action, branches } = setup([existing()])
    await action.execute(AGENCY, 3, { phone: '+54 9 11 5555-0000' })
    await action.execute(AGENCY, 3, { phone: '011 4555-0000' })
    assert.deepEqual(
      branches.updated.map((changes) => changes.phoneIsWhatsapp),
      [true, false]
    )
  })

  test('another agency’s branch, or none, is not found and nothing is written', async ({
    assert,
  }) => {
    const { action, branches } = setup([existing({ agencyId: 8 })])
    assert.deepEqual(
      await action.execute(AGENCY, 3, { description: 'x' }),
      fail('branch_not_found')
    )
    assert.deepEqual(
      await action.execute(AGENCY, 4, { description: 'x' }),
      fail('branch_not_found')
    )
    assert.deepEqual(branches.updated, [])
  })
})

test.group('SaveBranch: opening hours', () => {
  test('closing must come after opening: equal is refused, a second later is not', async ({
    assert,
  }) => {
    const refused = setup([existing()])
    const equal = await refused.action.execute(AGENCY, 3, {
      hours: {
        weekdays: { from: '09:00', to: '09:00:00' },
        holidays: { from: '10:00', to: '09:59' },
      },
    })
    assert.deepEqual(
      equal,
      fail('invalid_branch', { details: { closesBeforeOpening: ['weekdays', 'holidays'] } })
    )
    assert.equal(refused.unitOfWork.committed, 0, 'refused before any transaction')
    assert.deepEqual(refused.branches.updated, [])

    const accepted = setup([existing()])
    const later = await accepted.action.execute(AGENCY, 3, {
      hours: { weekdays: { from: '09:00', to: '09:00:01' } },
    })
    assert.isTrue(later.ok)
  })

  test('HH:MM is stored with seconds; a schedule not given stays', async ({ assert }) => {
    const { action, branches } = setup([existing()])
    await action.execute(AGENCY, 3, {
      hours: { preHolidays: { from: '09:30', to: '13:00:30' }, weekdays: undefined },
    })
    assert.deepEqual(branches.updated, [{ preHolidayFrom: '09:30:00', preHolidayTo: '13:00:30' }])
  })

  test('problems.ts names the closing field of each refused schedule', ({ assert }) => {
    const invalid: InvalidBranch = { closesBeforeOpening: ['preHolidays'] }
    const problem = problemFor(fail('invalid_branch', { details: invalid }))
    assert.equal(problem.status, 400)
    assert.deepEqual(problem.options.errors, {
      'PreFestivo.Hasta': ['La hora de cierre debe ser posterior a la de apertura.'],
    })
  })
})

test.group('SaveBranch: places', () => {
  test('a region is resolved through the catalogue; a city alone implies its region', async ({
    assert,
  }) => {
    const { action, branches, places } = setup([existing()])
    await action.execute(AGENCY, 3, { region: 'Córdoba' })
    await action.execute(AGENCY, 3, { city: 'Río Cuarto' })
    assert.deepEqual(places.asked, [
      { region: 'Córdoba', city: undefined },
      { region: undefined, city: 'Río Cuarto' },
    ])
    assert.deepEqual(branches.updated, [{ regionId: 5 }, { cityId: 51, regionId: 5 }])
  })

  test('a region with its city sets both; null clears', async ({ assert }) => {
    const { action, branches } = setup([existing()])
    await action.execute(AGENCY, 3, { region: 'Córdoba', city: 'Río Cuarto' })
    await action.execute(AGENCY, 3, { region: null, city: null })
    assert.deepEqual(branches.updated, [
      { regionId: 5, cityId: 51 },
      { regionId: null, cityId: null },
    ])
  })

  test('an unknown or ambiguous place is refused with the hours, before any write', async ({
    assert,
  }) => {
    const { action, branches, unitOfWork } = setup([existing()])
    const unknownCity = await action.execute(AGENCY, 3, { region: 'Córdoba', city: 'Atlantis' })
    assert.deepEqual(
      unknownCity,
      fail('invalid_branch', { details: { closesBeforeOpening: [], place: { city: 'not_found' } } })
    )
    const both = await action.execute(AGENCY, null, {
      description: 'x',
      region: 'San',
      hours: { holidays: { from: '12:00', to: '11:00' } },
    })
    assert.deepEqual(
      both,
      fail('invalid_branch', {
        details: { closesBeforeOpening: ['holidays'], place: { region: 'ambiguous' } },
      })
    )
    assert.deepEqual(branches.updated, [])
    assert.deepEqual(branches.created, [])
    assert.equal(unitOfWork.committed, 0)
  })

  test('problems.ts words place failures on Region and Ciudad', ({ assert }) => {
    const invalid: InvalidBranch = {
      closesBeforeOpening: [],
      place: { region: 'not_found', city: 'ambiguous' },
    }
    const problem = problemFor(fail('invalid_branch', { details: invalid }))
    assert.deepEqual(problem.options.errors, {
      Region: ['La región no existe.'],
      Ciudad: ['La ciudad es ambigua: envíe su id o su nombre completo.'],
    })
  })
})

test.group('SaveBranch: the validator’s mapping', () => {
  test('SucursalEdit maps to the domain input: absent stays absent, null stays null', ({
    assert,
  }) => {
    assert.deepEqual(
      toBranchInput({
        Descripcion: 'Norte',
        Email: null,
        TallerMecanico: true,
        Laborable: { Desde: '09:00', Hasta: '18:00' },
        Festivo: null,
        ResponsableLeadsPostVenta: 'jefe@agencia.example',
      }),
      {
        description: 'Norte',
        email: null,
        phone: undefined,
        region: undefined,
        city: undefined,
        address: undefined,
        sales: undefined,
        workshop: true,
        parts: undefined,
        hours: { weekdays: { from: '09:00', to: '18:00' }, preHolidays: undefined, holidays: null },
        afterSalesLeadOwner: 'jefe@agencia.example',
      }
    )
  })
})
