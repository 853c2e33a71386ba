import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency, uniqueEmail } from '#tests/helpers/agencies'
import AgencyDirectory from '#agencies/services/agency_directory'

test.group('Agencies / directory (module service)', () => {
  test('finds an agency only for the apps linked to it, case-insensitively', async ({ assert }) => {
    const { app } = await createCaller()
    const { app: other } = await createCaller()
    const fixture = await createAgency(app, { collaborators: [uniqueEmail('colab')] })
    const directory = new AgencyDirectory()

    const found = await directory.forApp(app.id, fixture.agency.adminMail.toUpperCase())
    assert.equal(found?.id, fixture.agency.id)
    assert.isNull(await directory.forApp(other.id, fixture.agency.adminMail))

    await grantAgency(other, fixture.agency.adminMail, true)
    assert.equal(
      (await directory.forApp(other.id, fixture.agency.adminMail))?.receivesOtherLeads,
      true
    )
    assert.deepEqual(await directory.appsReceivingOtherLeads(fixture.agency.id), [other.id])
  })

  test('members, administrator, operators by id and plan', async ({ assert }) => {
    const { app } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, {
      collaborators: [colab],
      plan: { capacity: 3, alta: 1 },
    })
    const directory = new AgencyDirectory()

    assert.isTrue(fixture.admin.isAdmin)
    assert.equal(fixture.admin.email, fixture.agency.adminMail)
    assert.deepEqual(fixture.admin.phones, ['011 4555-0000', '+5491155550000'])
    assert.equal(fixture.collaborators[0].email, colab)
    assert.isFalse(fixture.collaborators[0].isAdmin)

    assert.equal(
      (await directory.member(fixture.agency.id, colab.toUpperCase()))?.id,
      fixture.collaborators[0].id
    )
    assert.isNull(await directory.member(fixture.agency.id, uniqueEmail('nobody')))
    assert.equal(
      (await directory.memberById(fixture.agency.id, fixture.admin.id))?.email,
      fixture.admin.email
    )
    assert.equal((await directory.admin(fixture.agency.id))?.id, fixture.admin.id)

    const map = await directory.operators([fixture.admin.id, fixture.collaborators[0].id])
    assert.equal(map.size, 2)
    assert.isTrue(map.get(fixture.admin.id)?.isAdmin)

    assert.deepEqual(await directory.plan(fixture.agency.id), {
      capacity: 3,
      quotas: { high: 1, medium: 15, low: 50 },
    })
  })
})
