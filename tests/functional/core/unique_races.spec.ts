/*
 * Writes guarded by a unique constraint, raced for real: the losers get what a
 * repeated sequential request gets (docs/design.md §13), never a 500. The
 * operators' POST has its own file (tests/functional/agencies/operator_race.spec.ts).
 */
import { test } from '@japa/runner'
import { createCaller } from '#tests/helpers/apps'
import { dealerWorld } from '#tests/helpers/leads'
import { listingBody, uniqueExternalId } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { raw } from '#tests/helpers/http'

const CONCURRENT = 12

async function race(token: string, method: string, path: string, body: object) {
  const responses = await Promise.all(
    Array.from({ length: CONCURRENT }, () =>
      raw(path, {
        method,
        headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      })
    )
  )
  return Promise.all(
    responses.map(async (response) => ({
      status: response.status,
      body: (await response.json()) as any,
    }))
  )
}

const statuses = (results: { status: number }[]) => results.map((result) => result.status).sort()

const subscription = { Callback: 'https://hooks.example.com/app-events', Description: 'Eventos' }

test.group('Unique-constraint races', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('PUT of a new app subscription at once: every request 200, like sequential PUTs', async ({
    assert,
  }) => {
    const { token } = await createCaller()
    const results = await race(token, 'PUT', '/v3/appnotificaciones/invitaciones', subscription)
    assert.deepEqual(
      statuses(results),
      Array(CONCURRENT).fill(200),
      JSON.stringify(results.find((r) => r.status !== 200)?.body)
    )
  })

  test('POST of a new app subscription at once: one 201, the rest the sequential 409', async ({
    assert,
  }) => {
    const { token } = await createCaller()
    const results = await race(token, 'POST', '/v3/appnotificaciones/invitaciones', subscription)
    assert.deepEqual(statuses(results), [201, ...Array(CONCURRENT - 1).fill(409)])
    const sequential = await race(token, 'POST', '/v3/appnotificaciones/invitaciones', subscription)
    assert.deepEqual(statuses(sequential), Array(CONCURRENT).fill(409))
  })

  test('POST of one new ExternalId at once: one 201, the rest 409 Errors.ExternalId', async ({
    assert,
  }) => {
    const { token, adminMail } = await dealerWorld()
    const body = listingBody({ ExternalId: uniqueExternalId('race') })
    const results = await race(token, 'POST', `/v3/publicaciones/${adminMail}`, body)
    assert.deepEqual(statuses(results), [201, ...Array(CONCURRENT - 1).fill(409)])
    for (const loser of results.filter((result) => result.status === 409))
      assert.property(loser.body.Errors, 'ExternalId')
  })
})

test.group('Unique-constraint races: registration', () => {
  test('two apps’ invitations of one e-mail registered at once: one 201, the other the sequential 410', async ({
    assert,
  }) => {
    const { default: InviteAgency } = await import('#agencies/services/invite_agency')
    const { tokenFor } = await import('#agencies/services/invitation_tokens')
    const { uniqueEmail } = await import('#tests/helpers/agencies')
    const { default: application } = await import('@adonisjs/core/services/app')
    const invite = await application.container.make(InviteAgency)
    const email = uniqueEmail('register')
    const tokens: string[] = []
    for (const name of ['App uno', 'App dos', 'App tres', 'App cuatro']) {
      const { app } = await createCaller(name)
      const invited = await invite.execute(app.id, {
        adminEmail: email,
        tradeName: 'Autos Carrera',
        regionId: null,
        cityId: null,
        address: null,
        phone: null,
        phoneIsWhatsapp: false,
        adminFirstName: null,
        adminLastName: null,
      })
      if (!invited.ok) throw new Error(invited.reason)
      tokens.push(tokenFor(invited.value.tokenNonce))
    }
    const responses = await Promise.all(
      tokens.map((token) =>
        raw(`/registro/${token}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
          body: JSON.stringify({
            AdminNombre: 'Ana',
            AdminApellido: 'Pérez',
            Password: 'una-clave-larga',
          }),
        })
      )
    )
    const results = await Promise.all(
      responses.map(async (response) => ({ status: response.status, body: await response.text() }))
    )
    assert.deepEqual(
      results.map((result) => result.status).sort(),
      [201, 410, 410, 410],
      results.map((result) => `${result.status} ${result.body.slice(0, 200)}`).join('\n')
    )
  })
})
