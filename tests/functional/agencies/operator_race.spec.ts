/*
 * Unique-constraint races answer what the sequential loser gets (docs/design.md
 * §13): many concurrent POSTs of one new collaborator create one person and
 * one membership; every other request is the 409 of a repeated POST.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { raw } from '#tests/helpers/http'

const CONCURRENT = 30

function post(token: string, adminMail: string, email: string) {
  return raw(`/v3/operadores/${adminMail}`, {
    method: 'POST',
    headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ Email: email, Nombre: 'Ana', Apellido: 'Gómez' }),
    signal: AbortSignal.timeout(20_000),
  })
}

async function settle(responses: Response[]) {
  return Promise.all(
    responses.map(async (response) => ({
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: (await response.json()) as any,
    }))
  )
}

test.group('Agencies / operators: concurrent POST of one new e-mail', () => {
  test('sequential: the second POST of a member → 409 Errors.Email', async ({ assert }) => {
    const { app, token } = await createCaller()
    const { agency } = await createAgency(app)
    const email = uniqueEmail('seq')
    assert.equal((await post(token, agency.adminMail, email)).status, 201)
    const [again] = await settle([await post(token, agency.adminMail, email)])
    assert.equal(again.status, 409)
    assert.match(again.type, /^application\/problem\+json/)
    assert.deepEqual(Object.keys(again.body.Errors), ['Email'])
  })

  test(`${CONCURRENT} at once: exactly one 201, the rest the sequential 409, one person and one membership`, async ({
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { agency } = await createAgency(app)
    const email = uniqueEmail('race')
    const results = await settle(
      await Promise.all(
        Array.from({ length: CONCURRENT }, () => post(token, agency.adminMail, email))
      )
    )
    const statuses = results.map((result) => result.status)
    assert.equal(statuses.filter((status) => status === 201).length, 1, statuses.join(','))
    const losers = results.filter((result) => result.status !== 201)
    assert.lengthOf(losers, CONCURRENT - 1)
    for (const loser of losers) {
      assert.equal(loser.status, 409, JSON.stringify(loser.body))
      assert.match(loser.type, /^application\/problem\+json/)
      assert.deepEqual(loser.body.Errors, {
        Email: ['El operador ya es colaborador de la agencia.'],
      })
    }
    const people = await db.from('operators').where('email', email).select('id')
    assert.lengthOf(people, 1)
    const memberships = await db.from('memberships').where('operator_id', people[0].id)
    assert.lengthOf(memberships, 1)
  })

  test('two agencies at once: one 201, the other the sequential "member elsewhere" 409', async ({
    assert,
  }) => {
    const { app, token } = await createCaller()
    const [first, second] = await Promise.all([createAgency(app), createAgency(app)])
    const email = uniqueEmail('elsewhere')
    const pairs = Array.from(
      { length: 10 },
      (_, i) => (i % 2 === 0 ? first : second).agency.adminMail
    )
    const results = await settle(
      await Promise.all(pairs.map((adminMail) => post(token, adminMail, email)))
    )
    assert.equal(results.filter((result) => result.status === 201).length, 1)
    for (const loser of results.filter((result) => result.status !== 201)) {
      assert.equal(loser.status, 409, JSON.stringify(loser.body))
      assert.property(loser.body.Errors, 'Email')
    }
  })
})
