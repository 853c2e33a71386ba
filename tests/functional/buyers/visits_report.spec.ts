/*
 * GET /v3/visitas/{adminmail}: daily counts of the app's listings, filters,
 * period limits, representations and visibility between apps. Visits are
 * recorded through the counting service here; page views counting them is
 * covered in listing_page.spec.ts.
 */
import { test } from '@japa/runner'
import adonis from '@adonisjs/core/services/app'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import GrantAgency from '#agencies/services/grant_agency'
import application from '@adonisjs/core/services/app'
import RecordVisit, { type VisitedListing } from '#buyers/services/record_visit'
import { shiftDay, today } from '#buyers/services/visit_clock'
import PruneVisitors from '#buyers/services/prune_visitors'
import db from '@adonisjs/lucid/services/db'
import { MAX_SPAN_DAYS } from '#buyers/validators/visits_query'

let nextListingId = 900_000_000 + Math.floor(Math.random() * 1_000_000)

function listing(
  appId: number,
  agencyId: number,
  externalId: string,
  operatorId: number | null = null
): VisitedListing {
  nextListingId += 1
  return { listingId: nextListingId, appId, agencyId, externalId, operatorId }
}

/** A listing of a new agency of a new app, for the counting tests. */
async function agencyListing(appName: string, externalId: string) {
  const { app } = await createCaller(appName)
  const fixture = await createAgency(app)
  return { app, fixture, car: listing(app.id, fixture.agency.id, externalId) }
}

const person = (n: number) => ({
  ip: `10.1.0.${n}`,
  userAgent: `Mozilla/5.0 (X11; Linux x86_64) Firefox/13${n}.0`,
})

async function visits(target: VisitedListing, count: number, day: string) {
  const record = await adonis.container.make(RecordVisit)
  for (let n = 1; n <= count; n++) await record.execute(target, person(n), day)
}

async function setup() {
  const { app, token } = await createCaller('Visitas A')
  const fixture = await createAgency(app, { collaborators: [uniqueEmail('vendedor')] })
  return { app, token, fixture, adminMail: fixture.agency.adminMail }
}

test.group('Visits report', () => {
  test('lists daily counts per listing of the app, oldest day first', async ({
    client,
    assert,
  }) => {
    const { app, token, fixture, adminMail } = await setup()
    const one = listing(app.id, fixture.agency.id, 'AUTO-1')
    const two = listing(app.id, fixture.agency.id, 'AUTO-2')
    await visits(one, 3, shiftDay(today(), -2))
    await visits(one, 1, today())
    await visits(two, 2, today())

    const response = await client.get(`/v3/visitas/${adminMail}`).bearerToken(token)
    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^application\/json/)
    const body = response.body()
    assert.deepEqual(
      body._entries.map((entry: any) => [entry.ExternalId, entry.Fecha, entry.Visitas]),
      [
        ['AUTO-1', shiftDay(today(), -2), 3],
        ['AUTO-1', today(), 1],
        ['AUTO-2', today(), 2],
      ]
    )
    const entry = body._entries[0]
    assert.equal(
      entry._links.self.href,
      `/v3/visitas/${adminMail}?externalid=AUTO-1&desde=${entry.Fecha}&hasta=${entry.Fecha}`
    )
    assert.equal(entry._links.publicacion.href, `/v3/publicaciones/${adminMail}/AUTO-1`)
    assert.equal(
      body._links.self.href,
      `/v3/visitas/${adminMail}?desde=${shiftDay(today(), -29)}&hasta=${today()}`
    )
    assert.isTrue(body._links.filtrar.templated)

    // Every non-templated href resolves.
    const self = await client.get(entry._links.self.href).bearerToken(token)
    self.assertStatus(200)
    assert.deepEqual(
      self.body()._entries.map((e: any) => e.Visitas),
      [3]
    )
  })

  test('reference representation', async ({ client, assert }) => {
    const { app, token, fixture, adminMail } = await setup()
    await visits(listing(app.id, fixture.agency.id, 'REF-1'), 2, today())
    const response = await client
      .get(`/v3/visitas/${adminMail}`)
      .header('Accept', 'application/vnd.service.ref+json')
      .bearerToken(token)
    response.assertStatus(200)
    assert.match(response.header('content-type') ?? '', /^application\/vnd\.service\.ref\+json/)
    const [entry] = response.body()._entries
    assert.deepEqual(entry, {
      ExternalId: 'REF-1',
      Fecha: today(),
      Visitas: 2,
      href: `/v3/visitas/${adminMail}?externalid=REF-1&desde=${today()}&hasta=${today()}`,
      title: `REF-1 ${today()}: 2 visitas`,
    })
  })

  test('filters by externalid (any case), period and operador', async ({ client, assert }) => {
    const { app, token, fixture, adminMail } = await setup()
    const seller = fixture.collaborators[0]
    const mine = listing(app.id, fixture.agency.id, 'Op-Car', seller.id)
    const admins = listing(app.id, fixture.agency.id, 'Admin-Car', fixture.admin.id)
    await visits(mine, 1, shiftDay(today(), -40))
    await visits(mine, 2, shiftDay(today(), -10))
    await visits(admins, 4, shiftDay(today(), -10))

    const byListing = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ externalid: 'op-car' })
      .bearerToken(token)
    byListing.assertStatus(200)
    assert.deepEqual(
      byListing.body()._entries.map((e: any) => [e.ExternalId, e.Visitas]),
      [['Op-Car', 2]]
    )

    const period = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: shiftDay(today(), -45), hasta: shiftDay(today(), -40) })
      .bearerToken(token)
    assert.deepEqual(
      period.body()._entries.map((e: any) => [e.ExternalId, e.Fecha]),
      [['Op-Car', shiftDay(today(), -40)]]
    )

    const byOperator = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ operador: seller.email.toUpperCase() })
      .bearerToken(token)
    byOperator.assertStatus(200)
    assert.deepEqual(
      byOperator.body()._entries.map((e: any) => [e.ExternalId, e.Visitas]),
      [['Op-Car', 2]]
    )
  })

  test('default period is the 30 days up to today', async ({ client, assert }) => {
    const { app, token, fixture, adminMail } = await setup()
    const car = listing(app.id, fixture.agency.id, 'DEF-1')
    await visits(car, 1, shiftDay(today(), -29))
    await visits(car, 1, shiftDay(today(), -30))
    const response = await client.get(`/v3/visitas/${adminMail}`).bearerToken(token)
    assert.deepEqual(
      response.body()._entries.map((e: any) => e.Fecha),
      [shiftDay(today(), -29)]
    )
  })

  test(`the period may span ${MAX_SPAN_DAYS} days, not one more`, async ({ client, assert }) => {
    const { token, adminMail } = await setup()
    const hasta = today()
    const longest = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: shiftDay(hasta, -MAX_SPAN_DAYS), hasta })
      .bearerToken(token)
    longest.assertStatus(200)
    const tooLong = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: shiftDay(hasta, -MAX_SPAN_DAYS - 1), hasta })
      .bearerToken(token)
    tooLong.assertStatus(400)
    assert.match(tooLong.header('content-type') ?? '', /application\/problem\+json/)
    assert.property(tooLong.body().Errors, 'hasta')
    // Without hasta the period ends today: the same limit applies.
    const openEnded = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: shiftDay(today(), -MAX_SPAN_DAYS - 1) })
      .bearerToken(token)
    openEnded.assertStatus(400)
  })

  test('hasta equal to desde is one day; hasta before desde is refused', async ({
    client,
    assert,
  }) => {
    const { token, adminMail } = await setup()
    const same = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: today(), hasta: today() })
      .bearerToken(token)
    same.assertStatus(200)
    const before = await client
      .get(`/v3/visitas/${adminMail}`)
      .qs({ desde: today(), hasta: shiftDay(today(), -1) })
      .bearerToken(token)
    before.assertStatus(400)
    assert.property(before.body().Errors, 'hasta')
  })

  test('bad query values are 400 with Errors keyed by parameter', async ({ client, assert }) => {
    const { token, adminMail } = await setup()
    const cases: Array<[Record<string, string>, string]> = [
      [{ desde: '2026-13-01' }, 'desde'],
      [{ desde: '22/11/2026' }, 'desde'],
      [{ hasta: 'mañana' }, 'hasta'],
      [{ operador: 'no-es-un-mail' }, 'operador'],
      [{ operador: uniqueEmail('ajeno') }, 'operador'],
      [{ externalid: 'con espacio' }, 'externalid'],
      [{ externalid: 'x' }, 'externalid'],
    ]
    for (const [qs, key] of cases) {
      const response = await client.get(`/v3/visitas/${adminMail}`).qs(qs).bearerToken(token)
      response.assertStatus(400)
      assert.property(response.body().Errors, key, JSON.stringify(qs))
    }
  })

  test('an app sees only its own listings; an agency not linked to the app is 404', async ({
    client,
    assert,
  }) => {
    const { app, token, fixture, adminMail } = await setup()
    const other = await createCaller('Visitas B')
    await visits(listing(app.id, fixture.agency.id, 'SOLO-A'), 2, today())

    const unlinked = await client.get(`/v3/visitas/${adminMail}`).bearerToken(other.token)
    unlinked.assertStatus(404)
    assert.notInclude(unlinked.text(), 'SOLO-A')

    const unknown = await client.get(`/v3/visitas/${uniqueEmail('nadie')}`).bearerToken(token)
    unknown.assertStatus(404)

    // Linked to both apps: B sees its own listings only.
    const grant = await application.container.make(GrantAgency)
    const granted = await grant.execute(adminMail, other.app.id, false)
    assert.isTrue(granted.ok)
    await visits(listing(other.app.id, fixture.agency.id, 'SOLO-B'), 1, today())
    const forB = await client.get(`/v3/visitas/${adminMail}`).bearerToken(other.token)
    forB.assertStatus(200)
    assert.deepEqual(
      forB.body()._entries.map((e: any) => e.ExternalId),
      ['SOLO-B']
    )
    const forA = await client.get(`/v3/visitas/${adminMail}`).bearerToken(token)
    assert.deepEqual(
      forA.body()._entries.map((e: any) => e.ExternalId),
      ['SOLO-A']
    )
  })

  test('needs a bearer token', async ({ client }) => {
    const { adminMail } = await setup()
    const response = await client.get(`/v3/visitas/${adminMail}`)
    response.assertStatus(401)
  })
})

test.group('Visit counting', () => {
  test('a visitor counts once per listing and day; another visitor and another day count again', async ({
    assert,
  }) => {
    const { app, fixture, car } = await agencyListing('Conteo', 'CNT-1')
    const record = await adonis.container.make(RecordVisit)
    const day = today()
    assert.equal(await record.execute(car, person(1), day), 'counted')
    assert.equal(await record.execute(car, person(1), day), 'repeat')
    assert.equal(await record.execute(car, person(2), day), 'counted')
    assert.equal(
      await record.execute(car, { ...person(1), userAgent: 'Mozilla/5.0 Chrome/130' }, day),
      'counted'
    )
    assert.equal(await record.execute(car, person(1), shiftDay(day, 1)), 'counted')
    // The same visitor on another listing is a visit of that listing.
    assert.equal(
      await record.execute(listing(app.id, fixture.agency.id, 'CNT-2'), person(1), day),
      'counted'
    )
  })

  test('robots and requests without a User-Agent are not counted', async ({ assert }) => {
    const { car } = await agencyListing('Robots', 'BOT-1')
    const record = await adonis.container.make(RecordVisit)
    for (const userAgent of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'curl/8.5.0',
      'python-requests/2.31',
      '',
      undefined,
    ]) {
      assert.equal(
        await record.execute(car, { ip: '10.9.9.9', userAgent }, today()),
        'bot',
        String(userAgent)
      )
    }
  })

  test('visitor hashes older than yesterday are pruned; the daily counts stay', async ({
    assert,
  }) => {
    const { car } = await agencyListing('Poda', 'PODA-1')
    for (const days of [0, 1, 2, 3]) await visits(car, 2, shiftDay(today(), -days))
    await (await adonis.container.make(PruneVisitors)).execute()
    const left = await db
      .from('listing_visitors')
      .where('listing_id', car.listingId)
      .orderBy('day')
      .select(db.raw(`to_char(day, 'YYYY-MM-DD') as day`))
    assert.deepEqual([...new Set(left.map((row) => row.day))], [shiftDay(today(), -1), today()])
    const counts = await db
      .from('listing_visits')
      .where('listing_id', car.listingId)
      .count('* as days')
      .first()
    assert.equal(Number(counts!.days), 4)
    // Pruning again is harmless (the job is idempotent).
    await (await adonis.container.make(PruneVisitors)).execute()
  })
})
