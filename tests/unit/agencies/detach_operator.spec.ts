import { test } from '@japa/runner'
import { fail, ok } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import type { AgencyHooks, OperatorHandover } from '#agencies/hooks'
import type OperatorStore from '#agencies/stores/operator_store'
import type { OperatorRow } from '#agencies/stores/operator_store'
import DetachOperator, { type DetachIssues } from '#agencies/services/detach_operator'
import { problemFor } from '#agencies/http/problems'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'

const AGENCY = 7

function row(id: number, email: string, fields: Partial<OperatorRow> = {}): OperatorRow {
  return {
    id,
    email,
    first_name: 'Nombre',
    last_name: 'Apellido',
    work_phone: null,
    whatsapp: null,
    other_phones: [],
    suspended: false,
    is_admin: false,
    ...fields,
  }
}

/** The agency's members over an array; every call is logged in order. */
class FakeOperators implements Pick<
  OperatorStore,
  'lockHandover' | 'lockMemberships' | 'member' | 'removeMember'
> {
  log: string[] = []
  constructor(public rows: OperatorRow[]) {}

  async lockHandover(agencyId: number, tx: Tx) {
    this.log.push(`lockHandover ${agencyId} ${tx === FAKE_TX}`)
  }

  async lockMemberships(agencyId: number, tx: Tx) {
    this.log.push(`lockMemberships ${agencyId} ${tx === FAKE_TX}`)
  }

  async member(agencyId: number, email: string) {
    this.log.push(`member ${agencyId} ${email}`)
    return this.rows.find((candidate) => candidate.email === email)
  }

  async removeMember(agencyId: number, operatorId: number) {
    this.log.push(`removeMember ${agencyId} ${operatorId}`)
    this.rows = this.rows.filter((candidate) => candidate.id !== operatorId)
  }
}

/** A module's handover that records its call in the shared log and answers `answer`. */
function handover(
  name: string,
  log: string[],
  answer: () => ReturnType<OperatorHandover['execute']> = async () => ok(1)
): OperatorHandover {
  return {
    execute(agencyId, from, to, tx) {
      log.push(`${name} ${agencyId} ${from}→${to} ${tx === FAKE_TX}`)
      return answer()
    },
  }
}

function setup(rows: OperatorRow[], handovers?: (log: string[]) => OperatorHandover[]) {
  const operators = new FakeOperators(rows)
  const unitOfWork = new FakeUnitOfWork()
  const modules = handovers ? handovers(operators.log) : [handover('listings', operators.log)]
  const hooks = { operatorHandovers: async () => modules } as unknown as AgencyHooks
  const action = new DetachOperator(
    operators as unknown as OperatorStore,
    hooks,
    unitOfWork as never
  )
  return { action, operators, unitOfWork }
}

const ADMIN = row(1, 'admin@agencia.example', { is_admin: true })
const ANA = row(2, 'ana@agencia.example')
const BETO = row(3, 'beto@agencia.example')

test.group('DetachOperator', () => {
  test('hands the work over in hook order under both locks, then ends the membership', async ({
    assert,
  }) => {
    const { action, operators, unitOfWork } = setup([ADMIN, ANA, BETO], (log) => [
      handover('listings', log),
      handover('leads', log),
    ])
    const result = await action.execute(AGENCY, ANA.email, BETO.email)
    assert.deepEqual(result, ok(undefined))
    assert.deepEqual(operators.log, [
      'lockHandover 7 true',
      'lockMemberships 7 true',
      'member 7 ana@agencia.example',
      'member 7 beto@agencia.example',
      'listings 7 2→3 true',
      'leads 7 2→3 true',
      'removeMember 7 2',
    ])
    assert.deepEqual(
      operators.rows.map((member) => member.id),
      [1, 3]
    )
    assert.equal(unitOfWork.committed, 1)
  })

  test('finds both people by e-mail in any case', async ({ assert }) => {
    const { action, operators } = setup([ADMIN, ANA, BETO])
    const result = await action.execute(AGENCY, ' ANA@Agencia.example', 'Beto@AGENCIA.example ')
    assert.isTrue(result.ok)
    assert.include(operators.log, 'member 7 ana@agencia.example')
    assert.include(operators.log, 'member 7 beto@agencia.example')
  })

  test('the last collaborator may leave, handing the work to the administrator', async ({
    assert,
  }) => {
    const { action, operators } = setup([ADMIN, ANA])
    const result = await action.execute(AGENCY, ANA.email, ADMIN.email)
    assert.isTrue(result.ok)
    assert.include(operators.log, 'listings 7 2→1 true')
    assert.deepEqual(
      operators.rows.map((member) => member.id),
      [1]
    )
  })

  test('the leaving person must be a member', async ({ assert }) => {
    const { action, operators } = setup([ADMIN, BETO])
    const result = await action.execute(AGENCY, ANA.email, BETO.email)
    assert.deepEqual(result, fail('cannot_detach', { details: { leaving: 'not_member' } }))
    assert.notInclude(operators.log.join('\n'), 'listings')
    assert.notInclude(operators.log.join('\n'), 'removeMember')
  })

  test('the administrator cannot leave, while a collaborator can', async ({ assert }) => {
    const refused = setup([ADMIN, ANA])
    assert.deepEqual(
      await refused.action.execute(AGENCY, ADMIN.email, ANA.email),
      fail('cannot_detach', { details: { leaving: 'administrator' } })
    )
    assert.lengthOf(refused.operators.rows, 2)

    const allowed = setup([ADMIN, ANA, BETO])
    assert.isTrue((await allowed.action.execute(AGENCY, ANA.email, BETO.email)).ok)
  })

  test('the receiving person must be a member', async ({ assert }) => {
    const { action, operators } = setup([ADMIN, ANA])
    const result = await action.execute(AGENCY, ANA.email, BETO.email)
    assert.deepEqual(result, fail('cannot_detach', { details: { receiving: 'not_member' } }))
    assert.lengthOf(operators.rows, 2)
  })

  test('the receiving person must not be suspended, and is taken when active', async ({
    assert,
  }) => {
    const suspended = setup([ADMIN, ANA, { ...BETO, suspended: true }])
    assert.deepEqual(
      await suspended.action.execute(AGENCY, ANA.email, BETO.email),
      fail('cannot_detach', { details: { receiving: 'suspended' } })
    )
    assert.lengthOf(suspended.operators.rows, 3)

    const active = setup([ADMIN, ANA, BETO])
    assert.isTrue((await active.action.execute(AGENCY, ANA.email, BETO.email)).ok)
  })

  test('the receiving person must be someone else', async ({ assert }) => {
    const { action, operators } = setup([ADMIN, ANA])
    const result = await action.execute(AGENCY, ANA.email, ANA.email.toUpperCase())
    assert.deepEqual(result, fail('cannot_detach', { details: { receiving: 'same_person' } }))
    assert.lengthOf(operators.rows, 2)
  })

  test('both sides are reported at once', async ({ assert }) => {
    const { action } = setup([ADMIN, { ...BETO, suspended: true }])
    const result = await action.execute(AGENCY, ANA.email, BETO.email)
    assert.deepEqual(
      result,
      fail('cannot_detach', { details: { leaving: 'not_member', receiving: 'suspended' } })
    )
  })

  test('a handover that refuses rolls the whole detach back and stops the later hooks', async ({
    assert,
  }) => {
    const { action, operators, unitOfWork } = setup([ADMIN, ANA, BETO], (log) => [
      handover('listings', log),
      handover('leads', log, async () => fail('unknown_operator')),
      handover('third', log),
    ])
    const result = await action.execute(AGENCY, ANA.email, BETO.email)
    assert.deepEqual(result, fail('cannot_detach', { details: { receiving: 'handover_refused' } }))
    assert.include(operators.log, 'listings 7 2→3 true')
    assert.include(operators.log, 'leads 7 2→3 true')
    assert.notInclude(operators.log.join('\n'), 'third')
    assert.notInclude(operators.log.join('\n'), 'removeMember')
    assert.equal(unitOfWork.rolledBack, 1)
    assert.equal(unitOfWork.committed, 0)
  })

  test('an unexpected error of a handover propagates after rolling back', async ({ assert }) => {
    const { action, unitOfWork } = setup([ADMIN, ANA, BETO], (log) => [
      handover('listings', log, async () => {
        throw new Error('listings down')
      }),
    ])
    await assert.rejects(() => action.execute(AGENCY, ANA.email, BETO.email), 'listings down')
    assert.equal(unitOfWork.rolledBack, 1)
  })

  test('with no module registered only the membership ends', async ({ assert }) => {
    const { action, operators } = setup([ADMIN, ANA, BETO], () => [])
    assert.isTrue((await action.execute(AGENCY, ANA.email, BETO.email)).ok)
    assert.deepEqual(operators.log.slice(-1), ['removeMember 7 2'])
  })

  test('problems.ts words each reason on its query parameter (400)', ({ assert }) => {
    const problem = problemFor(
      fail('cannot_detach', {
        details: { leaving: 'administrator', receiving: 'same_person' } satisfies DetachIssues,
      })
    )
    assert.equal(problem.status, 400)
    assert.deepEqual(problem.options.errors, {
      operador: ['El administrador de la agencia no puede desasociarse.'],
      operadorDestino: ['El operador de destino debe ser otro colaborador.'],
    })
    const handoverRefused: DetachIssues = { receiving: 'handover_refused' }
    const refused = problemFor(fail('cannot_detach', { details: handoverRefused }))
    assert.deepEqual(refused.options.errors, {
      operadorDestino: ['El operador de destino no es válido.'],
    })
  })
})
