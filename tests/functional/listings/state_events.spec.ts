/*
 * Listing-state events with a cause the app did not make (docs/design.md §14):
 * `agency:suspend` (agency or operator) and `agency:plan` run as real ace
 * commands, and the listing's app gets a signed PublicacionSuspendida with
 * its Causa, also in GET /v3/eventos under the webhook-id.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import { Webhook } from 'standardwebhooks'
import JobRunner from '#core/jobs/runner'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { until } from '#tests/helpers/until'

const run = promisify(execFile)
const SECRET = 'whsec_' + Buffer.from('clave-de-estados-de-32-bytes-12').toString('base64')

/** Runs `node ace …` as customer support would, against the suite's database. */
function ace(...args: string[]) {
  return run(process.execPath, ['ace', ...args], { cwd: app.makePath(), env: process.env })
}

/** A caller subscribed to `publicaciones` on `path` of the receiver. */
async function subscribedCaller(client: any, receiver: Receiver, path: string) {
  const { app: caller, token } = await createCaller('State events app')
  const response = await client
    .put('/v3/appnotificaciones/publicaciones')
    .bearerToken(token)
    .json({ Callback: receiver.url(path), Secret: SECRET })
  response.assertStatus(200)
  return { caller, token }
}

/** The verified events received on `path` once `count` arrived; checks Id = webhook-id. */
async function eventsOn(assert: any, receiver: Receiver, path: string, count: number) {
  const requests = await until(
    async () => receiver.requests.filter((request) => request.path === path),
    (list) => list.length >= count,
    20_000
  )
  return requests.map((request) => {
    const headers = request.headers as Record<string, string>
    const event: any = new Webhook(SECRET).verify(request.body, headers)
    assert.equal(event.Id, headers['webhook-id'])
    return event
  })
}

async function stateOf(client: any, token: string, adminMail: string, externalId: string) {
  const response = await client
    .get(`/v3/publicaciones/${adminMail}/${externalId}`)
    .bearerToken(token)
  response.assertStatus(200)
  return response.body().EstadoActual as string
}

async function history(client: any, token: string) {
  const response = await client.get('/v3/eventos?topico=publicaciones').bearerToken(token)
  response.assertStatus(200)
  return response.body()._entries as any[]
}

const hrefOf = (adminMail: string, externalId: string) =>
  `/v3/publicaciones/${adminMail}/${externalId}`

test.group('Listing-state events caused outside the app', (group) => {
  let hooks: Receiver
  const initial = { allow: settings.outboundAllowPrivate }

  group.setup(async () => {
    await seedCatalog()
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['apps.webhook'] })
    hooks = await startReceiver()
    return () => hooks.close()
  })
  group.each.setup(() => {
    hooks.reset()
    settings.outboundAllowPrivate = true
    return () => {
      settings.outboundAllowPrivate = initial.allow
    }
  })

  test('agency:suspend suspends the agency’s active listings (AgenciaSuspendida); --off reactivates none', async ({
    client,
    assert,
  }) => {
    const { caller, token } = await subscribedCaller(client, hooks, '/agency')
    const agency = await createAgency(caller)
    const other = await createAgency(caller)
    const adminMail = agency.agency.adminMail
    const first = await createListing(caller, agency)
    const second = await createListing(caller, agency)
    const already = await createListing(caller, agency, { Activa: false })
    const untouched = await createListing(caller, other)

    await ace('agency:suspend', adminMail)

    const events = await eventsOn(assert, hooks, '/agency', 2)
    assert.lengthOf(events, 2)
    assert.sameMembers(
      events.map((event) => event.Recurso.href),
      [hrefOf(adminMail, first.externalId), hrefOf(adminMail, second.externalId)]
    )
    for (const event of events) {
      assert.equal(event.Tipo, 'PublicacionSuspendida')
      assert.equal(event.Topico, 'publicaciones')
      assert.deepEqual(event.Datos, { Causa: 'AgenciaSuspendida' })
      assert.equal(event.Agencia.AdminMail, adminMail)
    }
    assert.sameDeepMembers(await history(client, token), events)
    for (const listing of [first, second, already]) {
      assert.equal(await stateOf(client, token, adminMail, listing.externalId), 'Suspendida')
    }
    assert.equal(
      await stateOf(client, token, other.agency.adminMail, untouched.externalId),
      'Activa'
    )

    // Reinstating does not reactivate: the app got the event and decides.
    await ace('agency:suspend', adminMail, '--off')
    assert.equal(await stateOf(client, token, adminMail, first.externalId), 'Suspendida')
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.lengthOf(hooks.requests, 2)
  }).timeout(60_000)

  test('agency:suspend --operator suspends the listings that person is responsible for (OperadorSuspendido)', async ({
    client,
    assert,
  }) => {
    const { caller, token } = await subscribedCaller(client, hooks, '/operator')
    const colab = uniqueEmail('colab')
    const agency = await createAgency(caller, { collaborators: [colab] })
    const adminMail = agency.agency.adminMail
    const theirs = await createListing(caller, agency, { OperadorResponsable: colab })
    const admins = await createListing(caller, agency)

    await ace('agency:suspend', colab, '--operator')

    const events = await eventsOn(assert, hooks, '/operator', 1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.lengthOf(hooks.requests, 1, 'only the suspended person’s listing')
    const [event] = events
    assert.equal(event.Tipo, 'PublicacionSuspendida')
    assert.equal(event.Recurso.href, hrefOf(adminMail, theirs.externalId))
    assert.deepEqual(event.Datos, { Causa: 'OperadorSuspendido' })
    assert.deepEqual(await history(client, token), [event])
    assert.equal(await stateOf(client, token, adminMail, theirs.externalId), 'Suspendida')
    assert.equal(await stateOf(client, token, adminMail, admins.externalId), 'Activa')
  }).timeout(60_000)

  test('agency:plan below the active count suspends the most recently updated excess (Plan)', async ({
    client,
    assert,
  }) => {
    const { caller, token } = await subscribedCaller(client, hooks, '/plan')
    const plan = { capacity: 10, alta: 10, media: 10, baja: 10 }
    const agency = await createAgency(caller, { plan })
    const other = await createAgency(caller, { plan })
    const adminMail = agency.agency.adminMail
    const oldest = await createListing(caller, agency)
    const middle = await createListing(caller, agency)
    const newest = await createListing(caller, agency)
    const untouched = await createListing(caller, other)

    // Same capacity as active listings: nothing to suspend.
    await ace(
      'agency:plan',
      adminMail,
      '--capacity',
      '3',
      '--alta',
      '3',
      '--media',
      '3',
      '--baja',
      '3'
    )
    await ace(
      'agency:plan',
      adminMail,
      '--capacity',
      '1',
      '--alta',
      '1',
      '--media',
      '1',
      '--baja',
      '1'
    )

    const events = await eventsOn(assert, hooks, '/plan', 2)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.lengthOf(hooks.requests, 2)
    assert.sameMembers(
      events.map((event) => event.Recurso.href),
      [hrefOf(adminMail, middle.externalId), hrefOf(adminMail, newest.externalId)]
    )
    for (const event of events) {
      assert.equal(event.Tipo, 'PublicacionSuspendida')
      assert.deepEqual(event.Datos, { Causa: 'Plan' })
    }
    assert.sameDeepMembers(await history(client, token), events)
    assert.equal(await stateOf(client, token, adminMail, oldest.externalId), 'Activa')
    assert.equal(await stateOf(client, token, adminMail, newest.externalId), 'Suspendida')
    assert.equal(
      await stateOf(client, token, other.agency.adminMail, untouched.externalId),
      'Activa'
    )
  }).timeout(60_000)

  test('listing:state moves a listing as the administration (Administracion); the app’s own change sends nothing', async ({
    client,
    assert,
  }) => {
    const { caller, token } = await subscribedCaller(client, hooks, '/admin')
    const agency = await createAgency(caller)
    const adminMail = agency.agency.adminMail
    const listing = await createListing(caller, agency)
    const own = await createListing(caller, agency)
    const ownPath = hrefOf(adminMail, own.externalId)
    ;(await client.patch(`${ownPath}/suspender`).bearerToken(token)).assertStatus(200)

    await ace('listing:state', adminMail, listing.externalId, '--to', 'suspended')
    assert.equal(await stateOf(client, token, adminMail, listing.externalId), 'Suspendida')
    await ace('listing:state', adminMail.toUpperCase(), listing.externalId, '--to', 'active')
    assert.equal(await stateOf(client, token, adminMail, listing.externalId), 'Activa')
    await ace('listing:state', adminMail, listing.externalId, '--to', 'archived')
    assert.equal(await stateOf(client, token, adminMail, listing.externalId), 'Archivada')
    // Refused by the state machine (an archived listing stays archived), or unknown: exit 1.
    await assert.rejects(() =>
      ace('listing:state', adminMail, listing.externalId, '--to', 'active')
    )
    await assert.rejects(() => ace('listing:state', adminMail, 'no-such-id', '--to', 'active'))
    await assert.rejects(() => ace('listing:state', adminMail, listing.externalId, '--to', 'x'))

    const events = await eventsOn(assert, hooks, '/admin', 3)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.lengthOf(hooks.requests, 3, 'nothing for the app’s own suspender or the refusals')
    const sorted = [...events].sort((a, b) => a.Momento.localeCompare(b.Momento))
    assert.deepEqual(
      sorted.map((event) => event.Tipo),
      ['PublicacionSuspendida', 'PublicacionActivada', 'PublicacionArchivada']
    )
    for (const event of events) {
      assert.equal(event.Recurso.href, hrefOf(adminMail, listing.externalId))
      assert.deepEqual(event.Datos, { Causa: 'Administracion' })
    }
    assert.sameDeepMembers(await history(client, token), events)
  }).timeout(60_000)
})
