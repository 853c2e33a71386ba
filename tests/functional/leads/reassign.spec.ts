import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ReassignOperator from '#leads/services/reassign_operator'
import { dealerWorld, insertInquiries } from '#tests/helpers/leads'
import { uniqueEmail } from '#tests/helpers/agencies'

test.group('Leads: operator transfer (desasociar)', () => {
  test("moves the detached operator's inquiries and notification ownership to the receiving operator", async ({
    client,
    assert,
  }) => {
    const leaving = uniqueEmail('leaving')
    const staying = uniqueEmail('staying')
    const world = await dealerWorld({ collaborators: [leaving, staying] })
    const [from, to] = world.fixture.collaborators
    const agencyId = world.fixture.agency.id
    const base = { appId: world.caller.id, agencyId }
    const moved = await insertInquiries([{ receivedAt: new Date() }, { receivedAt: new Date() }], {
      ...base,
      operatorId: from.id,
      operatorEmail: from.email,
    })
    const [untouched] = await insertInquiries([{ receivedAt: new Date() }], {
      ...base,
      operatorId: to.id,
      operatorEmail: to.email,
    })
    await client
      .put(`/v3/notificaciones/${world.adminMail}`)
      .bearerToken(world.token)
      .json({ PublicacionConsultadaAdfMail: { Email: 'crm@example.com', Activo: true } })
    await db
      .from('notification_configs')
      .where('agency_id', agencyId)
      .update({ owner_operator_id: from.id })

    const service = await app.container.make(ReassignOperator)
    await db.transaction((trx) => service.execute(agencyId, from.id, to.id, trx))

    const rows = await db
      .from('inquiries')
      .whereIn('sid', [...moved, untouched])
      .select('operator_id', 'operator_email')
    assert.isTrue(rows.every((row) => row.operator_id === to.id && row.operator_email === to.email))
    const config = await db.from('notification_configs').where('agency_id', agencyId).firstOrFail()
    assert.equal(config.owner_operator_id, to.id)

    const response = await client
      .get(`/v3/consultas/${world.adminMail}/${moved[0]}`)
      .bearerToken(world.token)
    assert.equal(response.body().OperadorResponsable, to.email)
    const byLeaving = await client
      .get('/v3/consultas')
      .qs({ operador: from.email })
      .bearerToken(world.token)
    assert.equal(byLeaving.body().Total, 0)
  })

  test('rolls back with the caller’s transaction', async ({ assert }) => {
    const world = await dealerWorld({ collaborators: [uniqueEmail('a'), uniqueEmail('b')] })
    const [from, to] = world.fixture.collaborators
    const [sid] = await insertInquiries([{ receivedAt: new Date() }], {
      appId: world.caller.id,
      agencyId: world.fixture.agency.id,
      operatorId: from.id,
      operatorEmail: from.email,
    })
    const service = await app.container.make(ReassignOperator)
    await db
      .transaction(async (trx) => {
        await service.execute(world.fixture.agency.id, from.id, to.id, trx)
        throw new Error('desasociar failed later')
      })
      .catch(() => {})
    const row = await db.from('inquiries').where('sid', sid).firstOrFail()
    assert.equal(row.operator_id, from.id)
  })
})
