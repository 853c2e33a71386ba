import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { fail, ok } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'
import Agency from '#agencies/models/agency'
import Invitation from '#agencies/models/invitation'
import type InvitationStore from '#agencies/stores/invitation_store'
import type { InvitationChanges } from '#agencies/stores/invitation_store'
import type CreateAgency from '#agencies/services/create_agency'
import type { NewAgency } from '#agencies/services/create_agency'
import type InvitationEvents from '#agencies/services/invitation_events'
import RegisterAgency from '#agencies/services/register_agency'
import { hashToken } from '#agencies/services/invitation_tokens'
import { FAKE_TX, FakeUnitOfWork } from '#tests/helpers/fakes'

const TOKEN = 'registration-token'
const FORM = { firstName: 'Ana', lastName: 'Pérez', password: 'una clave larga' }

function invitation(fields: Partial<Invitation> = {}) {
  return new Invitation().merge({
    id: 40,
    appId: 9,
    adminEmail: 'dueña@agencia.example',
    tradeName: 'Autos Sur',
    regionId: 5,
    cityId: 51,
    address: 'Ruta 8 km 600',
    phone: '+5493584000000',
    phoneIsWhatsapp: true,
    tokenHash: hashToken(TOKEN),
    state: 'pending',
    expiresAt: DateTime.now().plus({ days: 3 }),
    acceptedAt: null,
    agencyId: null,
    eventQueuedAt: null,
    ...fields,
  })
}

/** Invitations over an array; every call logged in order. */
class FakeInvitations implements Pick<
  InvitationStore,
  'byTokenHash' | 'lockPendingOf' | 'lock' | 'update' | 'expireOtherPending'
> {
  log: string[] = []
  /** Set to make the row vanish between the lookup and the lock. */
  goneAtLock = false
  constructor(public rows: Invitation[]) {}

  async byTokenHash(tokenHash: string) {
    this.log.push('byTokenHash')
    return this.rows.find((row) => row.tokenHash === tokenHash) ?? null
  }

  async lockPendingOf(adminEmail: string, tx: Tx) {
    this.log.push(`lockPendingOf ${adminEmail} ${tx === FAKE_TX}`)
  }

  async lock(id: number, tx: Tx) {
    this.log.push(`lock ${id} ${tx === FAKE_TX}`)
    if (this.goneAtLock) return null
    return this.rows.find((row) => row.id === id) ?? null
  }

  async update(row: Invitation, changes: InvitationChanges, tx?: Tx) {
    this.log.push(`update ${Object.keys(changes).join(',')} ${tx === FAKE_TX}`)
    return row.merge(changes)
  }

  async expireOtherPending(adminEmail: string, exceptId: number, _now: DateTime, tx: Tx) {
    this.log.push(`expireOtherPending ${adminEmail} except ${exceptId} ${tx === FAKE_TX}`)
  }
}

/** CreateAgency answering each call from a list: an agency, `email_known`, or a thrown error. */
class FakeCreateAgency implements Pick<CreateAgency, 'execute'> {
  inputs: NewAgency[] = []
  constructor(public answers: Array<'created' | 'email_known' | Error> = ['created']) {}

  async execute(input: NewAgency, tx: Tx) {
    if (tx !== FAKE_TX) throw new Error('created outside the unit of work')
    this.inputs.push(input)
    const answer = this.answers.shift() ?? 'created'
    if (answer instanceof Error) throw answer
    if (answer === 'email_known') return fail('email_known')
    const agency = new Agency().merge({
      id: 70,
      adminEmail: input.adminEmail,
      tradeName: input.tradeName,
    })
    return ok({ agency } as never)
  }
}

class FakeEvents implements Pick<InvitationEvents, 'accepted'> {
  emitted: Array<{ invitationId: number; agencyId: number }> = []
  constructor(public queued = true) {}

  async accepted(row: Invitation, agency: Agency) {
    this.emitted.push({ invitationId: row.id, agencyId: agency.id })
    return this.queued
  }
}

function setup(
  rows: Invitation[],
  options: { answers?: Array<'created' | 'email_known' | Error>; eventQueued?: boolean } = {}
) {
  const invitations = new FakeInvitations(rows)
  const createAgency = new FakeCreateAgency(options.answers)
  const events = new FakeEvents(options.eventQueued ?? true)
  const unitOfWork = new FakeUnitOfWork()
  const action = new RegisterAgency(
    invitations as unknown as InvitationStore,
    createAgency as unknown as CreateAgency,
    events as unknown as InvitationEvents,
    unitOfWork as never
  )
  return { action, invitations, createAgency, events, unitOfWork }
}

/** A unique violation as node-postgres reports it. */
function uniqueViolation(constraint: string) {
  return Object.assign(new Error('duplicate key value'), { code: '23505', constraint })
}

test.group('RegisterAgency: the link', () => {
  test('a pending invitation within its validity can be used', async ({ assert }) => {
    const row = invitation({ expiresAt: DateTime.now().plus({ minutes: 1 }) })
    const { action } = setup([row])
    assert.deepEqual(await action.pending(TOKEN), ok(row))
  })

  test('an unknown token is not found', async ({ assert }) => {
    const { action } = setup([invitation()])
    assert.deepEqual(await action.pending('another-token'), fail('not_found'))
  })

  test('an invitation past its validity, accepted or expired is gone', async ({ assert }) => {
    const overdue = setup([invitation({ expiresAt: DateTime.now().minus({ seconds: 1 }) })])
    assert.deepEqual(await overdue.action.pending(TOKEN), fail('gone'))
    const accepted = setup([invitation({ state: 'accepted' })])
    assert.deepEqual(await accepted.action.pending(TOKEN), fail('gone'))
    const expired = setup([invitation({ state: 'expired' })])
    assert.deepEqual(await expired.action.pending(TOKEN), fail('gone'))
  })
})

test.group('RegisterAgency: registering', () => {
  test('creates the agency from the invitation and the form, and accepts the invitation', async ({
    assert,
  }) => {
    const row = invitation()
    const { action, invitations, createAgency, events, unitOfWork } = setup([row])
    const result = await action.execute(TOKEN, FORM)

    assert.isTrue(result.ok)
    assert.equal(result.ok && result.value.id, 70)
    const [input] = createAgency.inputs
    assert.deepInclude(input, {
      appId: 9,
      adminEmail: 'dueña@agencia.example',
      tradeName: 'Autos Sur',
    })
    assert.deepInclude(input.admin, {
      firstName: 'Ana',
      lastName: 'Pérez',
      phones: ['+5493584000000'],
      createdViaApi: true,
    })
    assert.isString(input.admin.passwordHash)
    assert.notEqual(input.admin.passwordHash, FORM.password, 'only a hash is stored')
    assert.deepEqual(input.mainBranch, {
      regionId: 5,
      cityId: 51,
      address: 'Ruta 8 km 600',
      phone: '+5493584000000',
      phoneIsWhatsapp: true,
    })
    assert.equal(row.state, 'accepted')
    assert.equal(row.agencyId, 70)
    assert.isNotNull(row.acceptedAt)
    assert.isNotNull(row.eventQueuedAt)
    assert.deepEqual(events.emitted, [{ invitationId: 40, agencyId: 70 }])
    assert.deepEqual(invitations.log, [
      'byTokenHash',
      'lockPendingOf dueña@agencia.example true',
      'lock 40 true',
      'update state,acceptedAt,agencyId true',
      'expireOtherPending dueña@agencia.example except 40 true',
      'update eventQueuedAt true',
    ])
    assert.equal(unitOfWork.committed, 1)
  })

  test('an invitation without a phone gives an administrator without phones', async ({
    assert,
  }) => {
    const { action, createAgency } = setup([invitation({ phone: null, phoneIsWhatsapp: false })])
    assert.isTrue((await action.execute(TOKEN, FORM)).ok)
    assert.deepEqual(createAgency.inputs[0].admin.phones, [])
  })

  test('an event the app could not be sent yet stays owed to the poll', async ({ assert }) => {
    const row = invitation()
    const { action } = setup([row], { eventQueued: false })
    assert.isTrue((await action.execute(TOKEN, FORM)).ok)
    assert.equal(row.state, 'accepted')
    assert.isNull(row.eventQueuedAt)
  })

  test('an unknown token, or a row gone by the time it is locked, is not found', async ({
    assert,
  }) => {
    const unknown = setup([invitation({ tokenHash: hashToken('other') })])
    assert.deepEqual(await unknown.action.execute(TOKEN, FORM), fail('not_found'))
    assert.deepEqual(unknown.createAgency.inputs, [])

    const vanished = setup([invitation()])
    vanished.invitations.goneAtLock = true
    assert.deepEqual(await vanished.action.execute(TOKEN, FORM), fail('not_found'))
    assert.deepEqual(vanished.createAgency.inputs, [])
  })

  test('an invitation expired, overdue or already used is gone and creates nothing', async ({
    assert,
  }) => {
    for (const fields of [
      { state: 'expired' as const },
      { state: 'accepted' as const },
      { expiresAt: DateTime.now().minus({ seconds: 1 }) },
    ]) {
      const { action, createAgency, events } = setup([invitation(fields)])
      assert.deepEqual(await action.execute(TOKEN, FORM), fail('gone'))
      assert.deepEqual(createAgency.inputs, [])
      assert.deepEqual(events.emitted, [])
    }
  })

  test('an e-mail registered meanwhile (another app’s invitation) spends this link', async ({
    assert,
  }) => {
    const row = invitation()
    const { action, invitations, events } = setup([row], { answers: ['email_known'] })
    assert.deepEqual(await action.execute(TOKEN, FORM), fail('gone'))
    assert.equal(row.state, 'expired')
    assert.isNull(row.agencyId)
    assert.deepEqual(events.emitted, [])
    assert.notInclude(invitations.log.join('\n'), 'expireOtherPending')
  })

  test('losing the unique e-mail race replays once and answers as the sequential request', async ({
    assert,
  }) => {
    for (const constraint of ['agencies_admin_email_unique', 'operators_email_unique']) {
      const row = invitation()
      const { action, createAgency, unitOfWork } = setup([row], {
        answers: [uniqueViolation(constraint), 'email_known'],
      })
      assert.deepEqual(await action.execute(TOKEN, FORM), fail('gone'))
      assert.lengthOf(createAgency.inputs, 2)
      assert.equal(unitOfWork.rolledBack, 1)
      assert.equal(unitOfWork.committed, 1)
      assert.equal(row.state, 'expired')
    }
  })

  test('another constraint’s violation is not replayed', async ({ assert }) => {
    const { action, createAgency, unitOfWork } = setup([invitation()], {
      answers: [uniqueViolation('branches_pkey')],
    })
    await assert.rejects(() => action.execute(TOKEN, FORM), 'duplicate key value')
    assert.lengthOf(createAgency.inputs, 1)
    assert.equal(unitOfWork.rolledBack, 1)
  })
})
