import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency } from '#tests/helpers/agencies'
import { dealerWorld, inquiryBody, insertInquiries, sidOf, postInquiry } from '#tests/helpers/leads'

const zone = settings.timezone
const today = () => DateTime.now().setZone(zone).startOf('day')
const day = (offset: number) => today().plus({ days: offset }).toISODate()!

test.group('GET /v3/consultas/{adminmail}: paging, period and filters', () => {
  test('paged envelope of §2.12: 100 per page, Total, templated links, newest first', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const base = {
      appId: world.caller.id,
      agencyId: world.fixture.agency.id,
      operatorEmail: world.fixture.admin.email,
    }
    const now = Date.now()
    await insertInquiries(
      Array.from({ length: 205 }, (_, i) => ({ receivedAt: new Date(now - i * 60_000) })),
      base
    )
    const url = `/v3/consultas/${world.adminMail}`

    const first = await client.get(url).bearerToken(world.token)
    first.assertStatus(200)
    const page1 = first.body()
    assert.equal(page1.Pagina, 1)
    assert.equal(page1.Total, 205)
    assert.equal(page1.PerPagina, 100)
    assert.lengthOf(page1._entries, 100)
    assert.equal(page1.Desde, today().minus({ days: 90 }).toISO({ suppressMilliseconds: true }))
    assert.equal(page1.Hasta, today().endOf('day').toISO())
    const times = page1._entries.map((entry: any) => Date.parse(entry.Momento))
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a)
    )
    assert.deepEqual(page1._links.page, {
      href: `${url}{?operador,externalid,desde,hasta,pagina}`,
      templated: true,
    })
    assert.equal(page1._links.self.href, `${url}?pagina=1`)
    assert.equal(page1._links.next.href, `${url}?pagina=2`)
    assert.notProperty(page1._links, 'prev')

    const page3 = (
      await client
        .get(page1._links.next.href.replace('pagina=2', 'pagina=3'))
        .bearerToken(world.token)
    ).body()
    assert.lengthOf(page3._entries, 5)
    assert.notProperty(page3._links, 'next')
    assert.equal(page3._links.prev.href, `${url}?pagina=2`)
    const page2 = (await client.get(page1._links.next.href).bearerToken(world.token)).body()
    const seen = new Set(
      [...page1._entries, ...page2._entries, ...page3._entries].map((e: any) => e._links.self.href)
    )
    assert.equal(seen.size, 205)

    const refs = await client
      .get(url)
      .bearerToken(world.token)
      .header('Accept', 'application/vnd.service.ref+json')
    refs.assertStatus(200)
    assert.equal(refs.header('content-type'), 'application/vnd.service.ref+json; charset=utf-8')
    assert.equal(refs.body().Total, 205)
    assert.sameMembers(Object.keys(refs.body()._entries[0]), ['href', 'title'])
    assert.match(
      refs.body()._entries[0].title,
      /^bulk\..*@example\.com, Toyota Corolla XEI 2024, bulk-1$/
    )
  })

  test('with other leads: listing and catalogue inquiries merged newest first across pages', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld({ receivesOtherLeads: true })
    const agencyId = world.fixture.agency.id
    const now = Date.now()
    const at = (i: number) => ({ receivedAt: new Date(now - i * 1000), externalId: `n-${i}` })
    const indexes = Array.from({ length: 210 }, (_, i) => i)
    await insertInquiries(indexes.filter((i) => i % 3 !== 0).map(at), {
      appId: world.caller.id,
      agencyId,
    })
    await insertInquiries(indexes.filter((i) => i % 3 === 0).map(at), { appId: null, agencyId })
    const url = `/v3/consultas/${world.adminMail}`
    const pages = []
    for (const pagina of [1, 2, 3])
      pages.push((await client.get(url).qs({ pagina }).bearerToken(world.token)).body())
    assert.deepEqual(
      pages.map((page) => page.Total),
      [210, 210, 210]
    )
    const order = pages.flatMap((page) => page._entries.map((entry: any) => entry.Auto.ExternalId))
    assert.deepEqual(
      order,
      indexes.map((i) => `n-${i}`)
    )
  })

  test('pagina: 1 and 99 accepted; 0, 100 and x rejected', async ({ client, assert }) => {
    const world = await dealerWorld()
    const url = `/v3/consultas/${world.adminMail}`
    for (const page of ['1', '99']) {
      const response = await client.get(url).qs({ pagina: page }).bearerToken(world.token)
      response.assertStatus(200)
      assert.equal(response.body().Pagina, Number(page))
    }
    for (const page of ['0', '100', 'x', '1.5']) {
      const response = await client.get(url).qs({ pagina: page }).bearerToken(world.token)
      response.assertStatus(400)
      assert.property(response.body().Errors, 'pagina', page)
    }
  })

  test('desde: today − 90 days accepted, − 91 rejected; hasta not before desde; bad dates rejected', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const url = `/v3/consultas/${world.adminMail}`
    const get = (qs: Record<string, string>) => client.get(url).qs(qs).bearerToken(world.token)
    const ok = await get({ desde: day(-90) })
    ok.assertStatus(200)
    assert.equal(ok.body().Desde, today().minus({ days: 90 }).toISO({ suppressMilliseconds: true }))
    const tooOld = await get({ desde: day(-91) })
    tooOld.assertStatus(400)
    assert.property(tooOld.body().Errors, 'desde')

    ;(await get({ desde: day(-5), hasta: day(-5) })).assertStatus(200)
    const backwards = await get({ desde: day(-5), hasta: day(-6) })
    backwards.assertStatus(400)
    assert.property(backwards.body().Errors, 'hasta')
    const beforeDefault = await get({ hasta: day(-91) })
    beforeDefault.assertStatus(400)
    assert.property(beforeDefault.body().Errors, 'hasta')
    for (const bad of ['2024-13-01', 'ayer', '2024/01/01']) {
      const response = await get({ desde: bad })
      response.assertStatus(400)
      assert.property(response.body().Errors, 'desde', bad)
    }
  })

  test('the period is whole days in TZ, both ends included', async ({ client, assert }) => {
    const world = await dealerWorld()
    const base = { appId: world.caller.id, agencyId: world.fixture.agency.id }
    const start = today().minus({ days: 10 })
    const end = today().minus({ days: 8 }).endOf('day')
    await insertInquiries(
      [
        { receivedAt: start.minus({ milliseconds: 1 }).toJSDate(), externalId: 'before' },
        { receivedAt: start.toJSDate(), externalId: 'first-instant' },
        { receivedAt: end.toJSDate(), externalId: 'last-instant' },
        { receivedAt: end.plus({ milliseconds: 1 }).toJSDate(), externalId: 'after' },
      ],
      base
    )
    const response = await client
      .get(`/v3/consultas/${world.adminMail}`)
      .qs({ desde: day(-10), hasta: day(-8) })
      .bearerToken(world.token)
    response.assertStatus(200)
    assert.sameMembers(
      response.body()._entries.map((entry: any) => entry.Auto.ExternalId),
      ['first-instant', 'last-instant']
    )
    assert.equal(
      response.body()._links.self.href,
      `/v3/consultas/${world.adminMail}?desde=${day(-10)}&hasta=${day(-8)}&pagina=1`
    )
  })

  test('operador and externalid filter; operador not in the agency → 400; adminmail optional with operador', async ({
    client,
    assert,
  }) => {
    const seller = `vendedor.${Date.now()}@example.com`
    const world = await dealerWorld({ collaborators: [seller] })
    const base = { appId: world.caller.id, agencyId: world.fixture.agency.id }
    const now = Date.now()
    await insertInquiries(
      [
        { receivedAt: new Date(now - 1000), operatorEmail: seller, externalId: 'AB-1' },
        { receivedAt: new Date(now - 2000), operatorEmail: seller, externalId: 'AB-2' },
        {
          receivedAt: new Date(now - 3000),
          operatorEmail: world.fixture.admin.email,
          externalId: 'AB-1',
        },
      ],
      base
    )
    const url = `/v3/consultas/${world.adminMail}`
    const bySeller = await client
      .get(url)
      .qs({ operador: seller.toUpperCase() })
      .bearerToken(world.token)
    bySeller.assertStatus(200)
    assert.equal(bySeller.body().Total, 2)
    const byListing = await client.get(url).qs({ externalid: 'ab-1' }).bearerToken(world.token)
    assert.equal(byListing.body().Total, 2)
    const both = await client
      .get(url)
      .qs({ externalid: 'AB-1', operador: seller })
      .bearerToken(world.token)
    assert.equal(both.body().Total, 1)

    const stranger = await client
      .get(url)
      .qs({ operador: 'nadie@example.com' })
      .bearerToken(world.token)
    stranger.assertStatus(400)
    assert.property(stranger.body().Errors, 'operador')
    const badEmail = await client.get(url).qs({ operador: 'no-es-mail' }).bearerToken(world.token)
    badEmail.assertStatus(400)

    const withoutAgency = await client
      .get('/v3/consultas')
      .qs({ operador: seller })
      .bearerToken(world.token)
    withoutAgency.assertStatus(200)
    assert.equal(withoutAgency.body().Total, 2)
    assert.equal(withoutAgency.body()._entries[0]._links.self.href.split('/')[3], world.adminMail)
    assert.equal(
      withoutAgency.body()._links.self.href,
      `/v3/consultas?operador=${encodeURIComponent(seller)}&pagina=1`
    )
    const missing = await client.get('/v3/consultas').bearerToken(world.token)
    missing.assertStatus(400)
    assert.property(missing.body().Errors, 'operador')
  })

  test('404 when the agency does not exist for the app', async ({ client }) => {
    const world = await dealerWorld()
    const { token } = await createCaller('Stranger')
    ;(await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(token)).assertStatus(404)
    ;(await client.get(`/v3/consultas/nadie@example.com`).bearerToken(world.token)).assertStatus(
      404
    )
  })
})

test.group('Inquiries: visibility between apps', () => {
  test('listing inquiries reach the publishing app only; catalogue ones the apps receiving other leads', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const { app: partner, token: partnerToken } = await createCaller('Partner (other leads)')
    const { app: plain, token: plainToken } = await createCaller('Plain partner')
    await grantAgency(partner, world.adminMail, true)
    await grantAgency(plain, world.adminMail, false)

    const listingInquiry = await postInquiry(client, world)
    const listingSid = sidOf(listingInquiry.header('location')!)
    await insertInquiries([{ receivedAt: new Date() }], {
      appId: null,
      agencyId: world.fixture.agency.id,
    })

    const list = async (token: string) =>
      (await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(token))
        .body()
        ._entries.map((e: any) => e.TipoAnuncio)
    assert.deepEqual(await list(world.token), ['Publicacion'])
    assert.sameMembers(await list(partnerToken), ['Catalogo'])
    assert.deepEqual(await list(plainToken), [])

    const self = `/v3/consultas/${world.adminMail}/${listingSid}`
    ;(await client.get(self).bearerToken(partnerToken)).assertStatus(404)
    ;(await client.get(`${self}/entregas`).bearerToken(partnerToken)).assertStatus(404)
    ;(await client.post(`${self}/resendwebhook`).bearerToken(partnerToken)).assertStatus(404)
    ;(await client.get(self).bearerToken(world.token)).assertStatus(200)
    ;(
      await client
        .get(self.toUpperCase().replace('/V3/CONSULTAS/', '/v3/consultas/'))
        .bearerToken(world.token)
    ).assertStatus(200)

    // An app not linked to the agency learns nothing.
    const { token: outsider } = await createCaller('Outsider')
    ;(await client.get(self).bearerToken(outsider)).assertStatus(404)
    ;(await client.post(`${self}/resendwebhook`).bearerToken(outsider)).assertStatus(403)
  })

  test("an app that sent an inquiry about another app's listing can read it back, but does not list it", async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const { app: partner, token } = await createCaller('Partner sender', ['consultas:crear'])
    await grantAgency(partner, world.adminMail, false)
    const created = await client
      .post(`/v3/consultas/${world.adminMail}`)
      .bearerToken(token)
      .json(inquiryBody(world.listing.externalId))
    created.assertStatus(201)
    const self = created.body()._links.self.href
    ;(await client.get(self).bearerToken(token)).assertStatus(200)
    ;(await client.get(created.body()._links.entregas.href).bearerToken(token)).assertStatus(200)
    assert.equal(
      (await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(token)).body().Total,
      0
    )
    const publisher = await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(world.token)
    assert.deepEqual(
      publisher.body()._entries.map((e: any) => e._links.self.href),
      [self]
    )
  })

  test('an unknown sid is 404', async ({ client }) => {
    const { app: caller, token } = await createCaller('Reader')
    const { agency } = await createAgency(caller)
    ;(await client.get(`/v3/consultas/${agency.adminMail}/nope`).bearerToken(token)).assertStatus(
      404
    )
  })
})

test.group('GET /v3/consultas: Total from the hourly counters', () => {
  /** The counters of an agency, their stripes summed per hour, and what counting the inquiries gives. */
  async function countersOf(agencyId: number) {
    const kept = await db
      .from('inquiry_hour_counts')
      .where('agency_id', agencyId)
      .groupBy('audience_app_id', 'hour')
      .havingRaw('sum(total) > 0')
      .orderBy(['audience_app_id', 'hour'])
      .select('audience_app_id', 'hour', db.raw('sum(total)::int as total'))
    const counted = await db
      .from('inquiries')
      .where('agency_id', agencyId)
      .groupByRaw("audience_app_id, date_trunc('hour', received_at, 'UTC')")
      .orderByRaw('1, 2')
      .select(
        'audience_app_id',
        db.raw("date_trunc('hour', received_at, 'UTC') as hour"),
        db.raw('count(*)::int as total')
      )
    return {
      kept: kept.map((row) => ({ ...row, hour: row.hour.toISOString() })),
      counted: counted.map((row) => ({ ...row, hour: row.hour.toISOString() })),
    }
  }

  test('inserts, deletes and moved rows keep the counters equal to counting the rows', async ({
    assert,
  }) => {
    const world = await dealerWorld({ receivesOtherLeads: true })
    const agencyId = world.fixture.agency.id
    const now = Date.now()
    await insertInquiries(
      Array.from({ length: 30 }, (_, i) => ({ receivedAt: new Date(now - i * 17 * 60_000) })),
      { appId: world.caller.id, agencyId }
    )
    await insertInquiries(
      Array.from({ length: 7 }, (_, i) => ({ receivedAt: new Date(now - i * 50 * 60_000) })),
      { appId: null, agencyId }
    )
    let counters = await countersOf(agencyId)
    assert.isAbove(counters.kept.length, 5)
    assert.deepEqual(counters.kept, counters.counted)

    const [oldest] = await db
      .from('inquiries')
      .where('agency_id', agencyId)
      .orderBy('received_at')
      .limit(1)
      .select('id')
    await db.from('inquiries').where('id', oldest.id).delete()
    const [newest] = await db
      .from('inquiries')
      .where('agency_id', agencyId)
      .orderBy('received_at', 'desc')
      .limit(1)
      .select('id')
    await db
      .from('inquiries')
      .where('id', newest.id)
      .update({ received_at: new Date(now - 30 * 86_400_000), app_id: null })
    counters = await countersOf(agencyId)
    assert.deepEqual(counters.kept, counters.counted)
  })

  test('Total sums whole hours from the counters and counts the partial hours at either end exactly', async ({
    assert,
  }) => {
    const world = await dealerWorld()
    const agencyId = world.fixture.agency.id
    const base = DateTime.utc().startOf('hour').minus({ hours: 10 })
    // One inquiry every 7 minutes over 10 hours: every hour has some, edges cut through them.
    const times = Array.from({ length: 86 }, (_, i) => base.plus({ minutes: i * 7 }).toJSDate())
    await insertInquiries(
      times.map((receivedAt) => ({ receivedAt })),
      { appId: world.caller.id, agencyId }
    )
    const hours = await db
      .from('inquiry_hour_counts')
      .where('agency_id', agencyId)
      .count('* as n')
      .first()
    assert.equal(Number(hours.n), 10)
    const { default: InquiryReader } = await import('#leads/services/inquiry_reader')
    const { default: app } = await import('@adonisjs/core/services/app')
    const reader = await app.container.make(InquiryReader)
    const audience = { appId: world.caller.id, agencyId, receivesOtherLeads: false }
    const periods = [
      [base.plus({ minutes: 30 }), base.plus({ hours: 7, minutes: 15 })],
      [base.plus({ minutes: 1 }), base.plus({ hours: 1, minutes: 59 })],
      [base, base.plus({ hours: 9 })],
      [base.plus({ minutes: 5 }), base.plus({ minutes: 40 })],
    ]
    for (const [from, to] of periods) {
      const expected = times.filter(
        (time) => time >= from.toJSDate() && time < to.toJSDate()
      ).length
      const page = await reader.page(audience, { from, to, page: 1, perPage: 100 }, world.adminMail)
      assert.equal(page.total, expected, `${from.toISO()} – ${to.toISO()}`)
    }
  })

  test('concurrent intakes of one agency are all counted', async ({ client, assert }) => {
    const world = await dealerWorld()
    const url = `/v3/consultas/${world.adminMail}`
    const posted = await Promise.all(
      Array.from({ length: 12 }, () =>
        client.post(url).bearerToken(world.token).json(inquiryBody(world.listing.externalId))
      )
    )
    for (const response of posted) response.assertStatus(201)
    const counters = await countersOf(world.fixture.agency.id)
    assert.deepEqual(counters.kept, counters.counted)
    assert.equal((await client.get(url).bearerToken(world.token)).body().Total, 12)
  })
})
