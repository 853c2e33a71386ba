/*
 * Idempotency-Key on POSTs (docs/design.md §14): exact replays, refusals of a
 * reused key, per-app scope, the 24 h lifetime, and races of identical POSTs.
 */
import { randomBytes } from 'node:crypto'
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency, uniqueEmail } from '#tests/helpers/agencies'
import { dealerWorld, inquiryBody } from '#tests/helpers/leads'
import { listingBody } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { raw } from '#tests/helpers/http'

type Sent = { status: number; headers: Headers; text: string }

let keys = 0
const newKey = () => `clave-${process.pid}-${Date.now().toString(36)}-${++keys}`

async function post(
  token: string,
  path: string,
  body: unknown,
  key?: string,
  extraHeaders: Record<string, string> = {}
): Promise<Sent> {
  const response = await raw(path, {
    method: 'POST',
    headers: {
      'Authorization': `Bearer ${token}`,
      'Content-Type': 'application/json',
      ...(key !== undefined && { 'Idempotency-Key': key }),
      ...extraHeaders,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Headers a replay must repeat: all but the per-request ones (id, rate-limit budget, transport). */
function replayedHeaders(headers: Headers) {
  const kept: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (
      ![
        'x-request-id',
        'date',
        'connection',
        'keep-alive',
        'idempotent-replayed',
        'ratelimit',
        'ratelimit-policy',
      ].includes(name) &&
      !name.startsWith('x-ratelimit-')
    )
      kept[name] = value
  })
  return kept
}

const branchBody = () => ({
  Descripcion: 'Taller Norte',
  Email: uniqueEmail('taller'),
  Telefono: '0221 455-1111',
  Region: 'AR-B',
  Ciudad: 'Tigre',
  Direccion: 'Av. Cazón 1500',
})

const operatorBody = () => ({
  Email: uniqueEmail('operador'),
  Nombre: 'Sofía',
  Apellido: 'Ruiz',
  Telefonos: ['+5493415550000'],
})

async function branchCount(agencyId: number) {
  const row = await db.from('branches').where('agency_id', agencyId).count('* as n').first()
  return Number(row.n)
}

test.group('Idempotency-Key', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('a retry with the same key and body replays the first response exactly', async ({
    assert,
  }) => {
    const { token, fixture } = await dealerWorld()
    const m = fixture.agency.adminMail
    const before = await branchCount(fixture.agency.id)
    const key = newKey()
    const body = branchBody()
    const first = await post(token, `/v3/sucursales/${m}`, body, key)
    assert.equal(first.status, 201, first.text)
    assert.isNull(first.headers.get('idempotent-replayed'))
    const second = await post(token, `/v3/sucursales/${m}`, body, key)
    assert.equal(second.status, 201)
    assert.equal(second.headers.get('idempotent-replayed'), 'true')
    assert.equal(second.text, first.text)
    assert.deepEqual(replayedHeaders(second.headers), replayedHeaders(first.headers))
    assert.isString(second.headers.get('location'))
    assert.notEqual(second.headers.get('x-request-id'), first.headers.get('x-request-id'))
    assert.equal(await branchCount(fixture.agency.id), before + 1)
    // Without a key, the same body is a second request.
    assert.equal((await post(token, `/v3/sucursales/${m}`, body)).status, 201)
    assert.equal(await branchCount(fixture.agency.id), before + 2)
  })

  test('a client error (400) is kept and replayed like a success', async ({ assert }) => {
    const { token, fixture } = await dealerWorld()
    const key = newKey()
    const invalid = { ...operatorBody(), Nombre: 'N'.repeat(51) }
    const first = await post(token, `/v3/operadores/${fixture.agency.adminMail}`, invalid, key)
    assert.equal(first.status, 400)
    const again = await post(token, `/v3/operadores/${fixture.agency.adminMail}`, invalid, key)
    assert.equal(again.status, 400)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    assert.equal(again.text, first.text)
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'))
  })

  test('the same key with another body: 422 problem, nothing created', async ({ assert }) => {
    const { token, fixture } = await dealerWorld()
    const m = fixture.agency.adminMail
    const key = newKey()
    assert.equal((await post(token, `/v3/sucursales/${m}`, branchBody(), key)).status, 201)
    const before = await branchCount(fixture.agency.id)
    const other = await post(token, `/v3/sucursales/${m}`, branchBody(), key)
    assert.equal(other.status, 422)
    assert.match(other.headers.get('content-type')!, /^application\/problem\+json/)
    assert.equal(JSON.parse(other.text).Status, 422)
    assert.isNull(other.headers.get('idempotent-replayed'))
    assert.equal(await branchCount(fixture.agency.id), before)
  })

  test('the same key while the first request is still running: 409 problem', async ({ assert }) => {
    const { caller: app, token, fixture } = await dealerWorld()
    const path = `/v3/sucursales/${fixture.agency.adminMail}`
    const body = branchBody()
    const key = newKey()
    // A first request in flight, as the middleware leaves it until it answers.
    await db.table('idempotency_keys').insert({
      app_id: app.id,
      method: 'POST',
      path,
      key,
      fingerprint: (await import('#core/http/idempotency')).fingerprint(JSON.stringify(body)),
      locked_until: new Date(Date.now() + 60_000),
    })
    const before = await branchCount(fixture.agency.id)
    const second = await post(token, path, body, key)
    assert.equal(second.status, 409)
    assert.match(second.headers.get('content-type')!, /^application\/problem\+json/)
    assert.equal(second.headers.get('retry-after'), '1')
    assert.equal(await branchCount(fixture.agency.id), before)
    // A claim whose request died lapses: the key is usable again.
    await db
      .from('idempotency_keys')
      .where({ app_id: app.id, key })
      .update({ locked_until: new Date(Date.now() - 1000) })
    const third = await post(token, path, body, key)
    assert.equal(third.status, 201, third.text)
    assert.equal(await branchCount(fixture.agency.id), before + 1)
  })

  test('keys are scoped per app: another app’s identical key and body are its own request', async ({
    assert,
  }) => {
    const { token, fixture } = await dealerWorld()
    const other = await createCaller('Otra app')
    await grantAgency(other.app, fixture.agency.adminMail)
    const path = `/v3/sucursales/${fixture.agency.adminMail}`
    const body = branchBody()
    const key = newKey()
    const before = await branchCount(fixture.agency.id)
    const mine = await post(token, path, body, key)
    const theirs = await post(other.token, path, body, key)
    assert.equal(mine.status, 201)
    assert.equal(theirs.status, 201, theirs.text)
    assert.isNull(theirs.headers.get('idempotent-replayed'))
    assert.notEqual(theirs.headers.get('location'), mine.headers.get('location'))
    assert.equal(await branchCount(fixture.agency.id), before + 2)
    // And per path: the same key on another agency's path is another request.
    const second = await createAgency(other.app)
    const elsewhere = await post(
      other.token,
      `/v3/sucursales/${second.agency.adminMail}`,
      body,
      key
    )
    assert.equal(elsewhere.status, 201)
    assert.isNull(elsewhere.headers.get('idempotent-replayed'))
  })

  test('a key lives 24 hours: an older one is a new request, and the cleanup job deletes it', async ({
    assert,
  }) => {
    const { caller, token, fixture } = await dealerWorld()
    const path = `/v3/sucursales/${fixture.agency.adminMail}`
    const body = branchBody()
    const key = newKey()
    const before = await branchCount(fixture.agency.id)
    assert.equal((await post(token, path, body, key)).status, 201)
    await db
      .from('idempotency_keys')
      .where({ app_id: caller.id, key })
      .update({ created_at: db.raw("now() - interval '23 hours 59 minutes'") })
    const within = await post(token, path, body, key)
    assert.equal(within.headers.get('idempotent-replayed'), 'true')
    await db
      .from('idempotency_keys')
      .where({ app_id: caller.id, key })
      .update({ created_at: db.raw("now() - interval '24 hours 1 minute'") })
    const after = await post(token, path, body, key)
    assert.equal(after.status, 201)
    assert.isNull(after.headers.get('idempotent-replayed'))
    assert.equal(await branchCount(fixture.agency.id), before + 2)

    await db
      .from('idempotency_keys')
      .where({ app_id: caller.id, key })
      .update({ created_at: db.raw("now() - interval '25 hours'") })
    const { default: Prune } = await import('#core/http/prune_idempotency_keys_job')
    const { default: adonisApp } = await import('@adonisjs/core/services/app')
    const prune = await adonisApp.container.make(Prune)
    await prune.handle()
    const left = await db.from('idempotency_keys').where({ app_id: caller.id, key })
    assert.lengthOf(left, 0)
  })

  test('an invalid key is a 400 problem naming the header, and nothing is created', async ({
    assert,
  }) => {
    const { token, fixture } = await dealerWorld()
    const before = await branchCount(fixture.agency.id)
    for (const key of ['x'.repeat(256), 'con espacio', 'con\ttab', 'ñandú']) {
      const response = await raw(`/v3/sucursales/${fixture.agency.adminMail}`, {
        method: 'POST',
        headers: {
          'Authorization': `Bearer ${token}`,
          'Content-Type': 'application/json',
          // fetch refuses non-Latin-1 header values: send the UTF-8 bytes as Latin-1.
          'Idempotency-Key': Buffer.from(key, 'utf8').toString('latin1'),
        },
        body: JSON.stringify(branchBody()),
      })
      assert.equal(response.status, 400, JSON.stringify(key))
      const problem = (await response.json()) as any
      assert.property(problem.Errors, 'Idempotency-Key')
    }
    assert.equal(
      (
        await post(
          token,
          `/v3/sucursales/${fixture.agency.adminMail}`,
          branchBody(),
          'x'.repeat(255)
        )
      ).status,
      201
    )
    assert.equal(await branchCount(fixture.agency.id), before + 1)
  })
})

test.group('Idempotency-Key: hostile paths', () => {
  test('a key on a path too long for any resource: the handler answers, never a 500', async ({
    assert,
  }) => {
    const { token } = await createCaller()
    const response = await post(
      token,
      `/v3/sucursales/${randomBytes(3000).toString('hex')}`,
      branchBody(),
      newKey()
    )
    assert.isBelow(response.status, 500, response.text)
    assert.isAtLeast(response.status, 400)
  })
})

test.group('Idempotency-Key: 20 identical POSTs at once', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  const CONCURRENT = 20

  async function race(token: string, path: string, body: unknown) {
    const key = newKey()
    const results = await Promise.all(
      Array.from({ length: CONCURRENT }, () => post(token, path, body, key))
    )
    const created = results.filter(
      (result) => result.status === 201 && !result.headers.get('idempotent-replayed')
    )
    const replayed = results.filter((result) => result.headers.get('idempotent-replayed'))
    const busy = results.filter((result) => result.status === 409)
    return { results, created, replayed, busy }
  }

  function assertOneWinner(assert: any, outcome: Awaited<ReturnType<typeof race>>, label: string) {
    const { results, created, replayed, busy } = outcome
    assert.lengthOf(created, 1, `${label}: ${results.map((r) => r.status)}`)
    assert.equal(created.length + replayed.length + busy.length, CONCURRENT, label)
    for (const copy of replayed) {
      assert.equal(copy.status, 201)
      assert.equal(copy.text, created[0].text)
      assert.equal(copy.headers.get('location'), created[0].headers.get('location'))
    }
  }

  test('branch: exactly one created', async ({ assert }) => {
    const { token, fixture } = await dealerWorld()
    const before = await branchCount(fixture.agency.id)
    const outcome = await race(token, `/v3/sucursales/${fixture.agency.adminMail}`, branchBody())
    assertOneWinner(assert, outcome, 'branch')
    assert.equal(await branchCount(fixture.agency.id), before + 1)
  }).timeout(60_000)

  test('inquiry: exactly one created', async ({ assert }) => {
    const world = await dealerWorld()
    const count = async () =>
      Number(
        (
          await db
            .from('inquiries')
            .where('agency_id', world.fixture.agency.id)
            .count('* as n')
            .first()
        ).n
      )
    const before = await count()
    const outcome = await race(
      world.token,
      `/v3/consultas/${world.adminMail}`,
      inquiryBody(world.listing.externalId)
    )
    assertOneWinner(assert, outcome, 'inquiry')
    assert.equal(await count(), before + 1)
  }).timeout(60_000)

  test('listing and operator: exactly one created, the rest replay it (not the 409 of a duplicate)', async ({
    assert,
  }) => {
    const { token, fixture } = await dealerWorld()
    const m = fixture.agency.adminMail
    const listing = listingBody()
    const listingOutcome = await race(token, `/v3/publicaciones/${m}`, listing)
    assertOneWinner(assert, listingOutcome, 'listing')
    const listings = await db
      .from('listings')
      .where('agency_id', fixture.agency.id)
      .whereRaw('lower(external_id) = lower(?)', [listing.ExternalId])
    assert.lengthOf(listings, 1)

    const operator = operatorBody()
    const operatorOutcome = await race(token, `/v3/operadores/${m}`, operator)
    assertOneWinner(assert, operatorOutcome, 'operator')
    const operators = await db
      .from('operators')
      .whereRaw('lower(email) = lower(?)', [operator.Email])
    assert.lengthOf(operators, 1)
  }).timeout(90_000)
})
