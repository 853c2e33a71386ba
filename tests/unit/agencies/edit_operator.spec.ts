import { test } from '@japa/runner'
import { fail } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import Operator from '#agencies/models/operator'
import type OperatorStore from '#agencies/stores/operator_store'
import type { MemberRecord, OperatorChanges } from '#agencies/stores/operator_store'
import type ResolvePlace from '#agencies/services/resolve_place'
import EditOperator from '#agencies/services/edit_operator'
import { toOperatorEdit } from '#agencies/validators/operator_validators'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'
import { FakePlaces } from './fake_places.js'

const AGENCY = 7

function person(id: number, email: string, isAdmin: boolean, createdViaApi = true): MemberRecord {
  const operator = new Operator().merge({
    id,
    email,
    firstName: 'Nombre',
    lastName: 'Apellido',
    workPhone: '011 4555-0000',
    whatsapp: null,
    createdViaApi,
  })
  return { operator, isAdmin }
}

/** Members over an array: an e-mail picks one, none picks the administrator. */
class FakeOperators implements Pick<OperatorStore, 'memberRecord' | 'update'> {
  updates: OperatorChanges[] = []
  lookups: Array<string | undefined> = []
  constructor(public members: MemberRecord[]) {}

  async memberRecord(agencyId: number, email: string | undefined, tx?: Tx) {
    if (agencyId !== AGENCY || tx !== FAKE_TX) throw new Error('unexpected lookup')
    this.lookups.push(email)
    return (
      this.members.find((member) =>
        email === undefined ? member.isAdmin : member.operator.email === email
      ) ?? null
    )
  }

  async update(operator: Operator, changes: OperatorChanges) {
    this.updates.push(changes)
    operator.merge(changes)
  }
}

function setup(members: MemberRecord[]) {
  const operators = new FakeOperators(members)
  const places = new FakePlaces()
  const unitOfWork = new FakeUnitOfWork()
  const action = new EditOperator(
    operators as unknown as OperatorStore,
    places as unknown as ResolvePlace,
    unitOfWork as never
  )
  return { action, operators, places, unitOfWork }
}

const ADMIN = () => person(1, 'admin@agencia.example', true)
const ANA = () => person(2, 'ana@agencia.example', false)

test.group('EditOperator', () => {
  test('without a target it edits the administrator; with one, that member (any case)', async ({
    assert,
  }) => {
    const { action, operators } = setup([ADMIN(), ANA()])
    const admin = await action.execute(AGENCY, undefined, { firstName: 'Ada' })
    const ana = await action.execute(AGENCY, 'ANA@agencia.example', { firstName: 'Ana' })
    assert.deepEqual(operators.lookups, [undefined, 'ana@agencia.example'])
    assert.equal(admin.ok && admin.value.operator.firstName, 'Ada')
    assert.isTrue(admin.ok && admin.value.isAdmin)
    assert.equal(ana.ok && ana.value.operator.firstName, 'Ana')
  })

  test('someone who is not a member is refused and nothing is written', async ({ assert }) => {
    const { action, operators } = setup([ADMIN()])
    assert.deepEqual(
      await action.execute(AGENCY, 'ana@agencia.example', { firstName: 'x' }),
      fail('not_member')
    )
    assert.deepEqual(operators.updates, [])
  })

  test('an administrator registered outside the API is not editable; one created by it is', async ({
    assert,
  }) => {
    const outside = setup([person(1, 'admin@agencia.example', true, false)])
    assert.deepEqual(
      await outside.action.execute(AGENCY, undefined, { firstName: 'x' }),
      fail('admin_not_editable')
    )
    assert.deepEqual(outside.operators.updates, [])

    const viaApi = setup([ADMIN()])
    assert.isTrue((await viaApi.action.execute(AGENCY, undefined, { firstName: 'x' })).ok)
    // A collaborator created outside the API is still editable: the rule is the administrator's.
    const collaborator = setup([ADMIN(), person(2, 'ana@agencia.example', false, false)])
    assert.isTrue(
      (await collaborator.action.execute(AGENCY, 'ana@agencia.example', { firstName: 'x' })).ok
    )
  })

  test("absent fields stay; null and '' clear (names to '', the rest to null)", async ({
    assert,
  }) => {
    const { action, operators } = setup([ADMIN()])
    await action.execute(AGENCY, undefined, { lastName: null, workPhone: '', address: null })
    assert.deepEqual(operators.updates, [{ lastName: '', workPhone: null, address: null }])
  })

  test('a city alone implies its region; an unknown place is refused before the transaction', async ({
    assert,
  }) => {
    const { action, operators, unitOfWork } = setup([ADMIN()])
    await action.execute(AGENCY, undefined, { city: 'Río Cuarto' })
    assert.deepEqual(operators.updates, [{ cityId: 51, regionId: 5 }])
    assert.deepEqual(
      await action.execute(AGENCY, undefined, { city: 'Atlantis' }),
      fail('unknown_place', { details: { city: 'not_found' } })
    )
    assert.equal(unitOfWork.committed, 1, 'the refused edit opened no unit of work')
  })

  test('the validator maps OperadorEdit to the domain input, absent staying absent', ({
    assert,
  }) => {
    assert.deepEqual(toOperatorEdit({ Nombre: 'Ana', WhatsApp: null, Ciudad: 'Río Cuarto' }), {
      firstName: 'Ana',
      lastName: undefined,
      workPhone: undefined,
      whatsapp: null,
      address: undefined,
      region: undefined,
      city: 'Río Cuarto',
    })
  })
})
