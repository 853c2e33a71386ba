/*
 * A buyer's request touches that buyer only (docs/design.md §24, §25): phones
 * as Argentine national numbers, a number without area code only beside
 * another identifier, documents by their DNI; exports purged with the person
 * and showing what the requesting app may see; the agency's requests listed
 * for every linked app, its retention changed by the inviting app only; the
 * buyers' form pages kept for replay found by e-mail in any case and by phone.
 */
import { test } from '@japa/runner'
import { randomBytes, randomInt } from 'node:crypto'
import { DateTime } from 'luxon'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import ApplyRetention from '#buyers/services/privacy/apply_retention'
import { createCaller } from '#tests/helpers/apps'
import { grantAgency, uniqueEmail } from '#tests/helpers/agencies'
import { dealerWorld, inquiryBody, postInquiry, sidOf } from '#tests/helpers/leads'
import { fileRequest, finished } from '#tests/helpers/privacy'
import { formFields, openForm, postForm } from '#tests/helpers/buyers'

type World = Awaited<ReturnType<typeof dealerWorld>>

/** A subscriber number of 8 digits unique enough to this run. */
const subscriber = () => `${randomInt(4000, 4999)}-${randomInt(1000, 9999)}`

async function inquiryOf(client: any, world: World, buyer: Record<string, unknown>) {
  const created = await postInquiry(
    client,
    world,
    inquiryBody(world.listing.externalId, { Email: uniqueEmail('buyer'), ...buyer })
  )
  return sidOf(created.header('location')!)
}

/** Files the request, waits for it, and answers the finished request with its export (access). */
async function request(client: any, world: World, body: Record<string, unknown>) {
  const filed = await fileRequest(client, world, body)
  const done = await finished(client, world, filed.body().Id)
  if (body.Tipo !== 'Acceso') return { done, data: null }
  const data = await client.get(done._links.datos.href).bearerToken(world.token)
  data.assertStatus(200)
  return { done, data: data.body() }
}

const sidsOf = (data: any) =>
  data.Consultas.map((consulta: any) => sidOf(consulta._links.self.href)).sort()

async function erased(sid: string) {
  const row = await db.from('inquiries').where('sid', sid).select('buyer_erased_at').first()
  return row.buyer_erased_at !== null
}

test.group('Privacy matching: phones, documents (docs/design.md §25)', (group) => {
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['privacy.request'] })
  })

  test("Juan's full number takes in his inquiries however written, never Wanda's number without area code", async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const number = subscriber()
    const wandaEmail = uniqueEmail('wanda')
    const wanda = await inquiryOf(client, world, { Telefono: number, Email: wandaEmail })
    const juan = [
      await inquiryOf(client, world, { Telefono: `+54 9 11 ${number}` }),
      await inquiryOf(client, world, { Telefono: `011 15 ${number}` }),
      await inquiryOf(client, world, { Telefono: `011 ${number}` }),
      await inquiryOf(client, world, { Telefono: `11 15 ${number}` }),
    ]
    // Another area code, the same subscriber digits: another person.
    const cordoba = await inquiryOf(client, world, { Telefono: `0351 15 ${number.slice(1)}` })

    const access = await request(client, world, { Tipo: 'Acceso', Telefono: `+54 9 11 ${number}` })
    assert.equal(access.done.Consultas, 4)
    assert.deepEqual(sidsOf(access.data), [...juan].sort())
    for (const consulta of access.data.Consultas)
      assert.deepEqual(consulta.Coincidencia, ['Telefono'])

    // Wanda's own request, her number as she typed it and her e-mail: her inquiry, by both.
    const hers = await request(client, world, {
      Tipo: 'Acceso',
      Telefono: number,
      Email: wandaEmail.toUpperCase(),
    })
    assert.deepEqual(sidsOf(hers.data), [wanda])
    assert.deepEqual(hers.data.Consultas[0].Coincidencia, ['Email', 'Telefono'])

    const suppression = await request(client, world, {
      Tipo: 'Supresion',
      Telefono: `+54 9 11 ${number}`,
    })
    assert.equal(suppression.done.Consultas, 4)
    for (const sid of juan) assert.isTrue(await erased(sid), sid)
    assert.isFalse(await erased(wanda))
    assert.isFalse(await erased(cordoba))
  }).timeout(60_000)

  test('a phone without area code: 400 alone; with a document, it finds the 7-digit stored number', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const seven = `${randomInt(400, 499)}-${randomInt(1000, 9999)}`
    const dni = String(randomInt(30_000_000, 39_999_999))
    const sid = await inquiryOf(client, world, {
      Telefono: seven,
      DocIdentidad: `${dni.slice(0, 2)}.${dni.slice(2, 5)}.${dni.slice(5)}`,
    })
    const alone = await client
      .post(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(world.token)
      .json({ Tipo: 'Acceso', Telefono: seven })
    alone.assertStatus(400)
    assert.properties(alone.body().Errors, ['Telefono'])
    // Six digits is the floor of a phone: five are refused whatever goes with them.
    const five = await client
      .post(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(world.token)
      .json({ Tipo: 'Acceso', Telefono: '4-1234', DocIdentidad: dni })
    five.assertStatus(400)
    assert.properties(five.body().Errors, ['Telefono'])

    // With the buyer's CUIT (the DNI inside it): found, by both.
    const { data } = await request(client, world, {
      Tipo: 'Acceso',
      Telefono: seven,
      DocIdentidad: `20-${dni}-5`,
    })
    assert.deepEqual(sidsOf(data), [sid])
    assert.deepEqual(data.Consultas[0].Coincidencia, ['Telefono', 'DocIdentidad'])
  }).timeout(60_000)

  test('CUIT ↔ DNI both ways; another DNI is somebody else', async ({ client, assert }) => {
    const world = await dealerWorld()
    const dni = String(randomInt(30_000_000, 39_999_999))
    const byDni = await inquiryOf(client, world, { DocIdentidad: dni })
    const byCuit = await inquiryOf(client, world, { DocIdentidad: `27-${dni}-4` })
    const other = await inquiryOf(client, world, { DocIdentidad: String(Number(dni) + 1) })
    const cuit = await request(client, world, { Tipo: 'Acceso', DocIdentidad: `20${dni}3` })
    assert.deepEqual(sidsOf(cuit.data), [byDni, byCuit].sort())
    const plain = await request(client, world, {
      Tipo: 'Acceso',
      DocIdentidad: `${dni.slice(0, 2)}.${dni.slice(2, 5)}.${dni.slice(5)}`,
    })
    assert.deepEqual(sidsOf(plain.data), [byDni, byCuit].sort())
    assert.notInclude(sidsOf(plain.data), other)
  }).timeout(60_000)

  test('the audit row of a request records how many inquiries matched', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const email = uniqueEmail('audit')
    await inquiryOf(client, world, { Email: email })
    await inquiryOf(client, world, { Email: email.toUpperCase() })
    const { done } = await request(client, world, { Tipo: 'Acceso', Email: email })
    const audit = await db.from('privacy_audit').where('request_id', done.Id).first()
    assert.equal(audit.source, 'request')
    assert.equal(audit.matched, 2)
    const none = await request(client, world, { Tipo: 'Supresion', Email: uniqueEmail('nadie') })
    const noneAudit = await db.from('privacy_audit').where('request_id', none.done.Id).first()
    assert.equal(noneAudit.matched, 0)
  }).timeout(60_000)
})

test.group('Privacy: a buyer’s data leaves every copy (docs/design.md §24)', (group) => {
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['privacy.request'] })
  })

  /** `ace privacy:export` for the person at the agency: its exit code and the JSON it printed. */
  async function exportCommand(email: string, adminMail: string) {
    const kernel = await app.container.make('ace')
    const printed: string[] = []
    const write = process.stdout.write
    process.stdout.write = ((chunk: any) => printed.push(String(chunk)) > 0) as any
    try {
      const command = await kernel.exec('privacy:export', ['--email', email, '--agency', adminMail])
      return { exitCode: command.exitCode, json: JSON.parse(printed.join('')) }
    } finally {
      process.stdout.write = write
    }
  }

  test('a suppression purges the access exports of the same person: 410, and privacy:export agrees', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const email = uniqueEmail('ana')
    const number = subscriber()
    await inquiryOf(client, world, { Email: email, Telefono: `011 15 ${number}` })
    // Two exports of her (by e-mail; by a CUIT that matches nothing), one of somebody else.
    const byEmail = await request(client, world, { Tipo: 'Acceso', Email: email })
    assert.equal(byEmail.done.Consultas, 1)
    const cuit = `20-${randomInt(30_000_000, 39_999_999)}-1`
    const byNothing = await request(client, world, { Tipo: 'Acceso', DocIdentidad: cuit })
    assert.equal(byNothing.done.Consultas, 0)
    const otherEmail = uniqueEmail('otro')
    await inquiryOf(client, world, { Email: otherEmail })
    const someoneElse = await request(client, world, { Tipo: 'Acceso', Email: otherEmail })
    const before = await exportCommand(email, world.adminMail)
    assert.equal(before.exitCode, 0)
    assert.equal(before.json.Consultas, 1)

    // She asks for suppression by her phone and her CUIT: other identifiers than the first export's.
    await request(client, world, {
      Tipo: 'Supresion',
      Telefono: `+54 9 11 ${number}`,
      DocIdentidad: cuit,
    })
    const datos = (done: any) => client.get(done._links.datos.href).bearerToken(world.token)
    const gone = await datos(byEmail.done)
    gone.assertStatus(410)
    assert.equal(gone.header('content-type'), 'application/problem+json; charset=utf-8')
    // The export that held no inquiry, named by the CUIT: purged too.
    ;(await datos(byNothing.done)).assertStatus(410)
    ;(await datos(someoneElse.done)).assertStatus(200)
    const row = await db.from('privacy_requests').where('id', byEmail.done.Id).first()
    assert.isNull(row.export)
    // The command gives the same answer: nothing held on her.
    const after = await exportCommand(email, world.adminMail)
    assert.equal(after.exitCode, 0)
    assert.deepEqual(after.json, { Consultas: 0, Agencias: [] })
  }).timeout(90_000)

  test("a suppression at one agency leaves another agency's export of the same e-mail", async ({
    client,
    assert,
  }) => {
    const here = await dealerWorld()
    const elsewhere = await dealerWorld()
    const email = uniqueEmail('dos')
    const sid = await inquiryOf(client, here, { Email: email })
    await inquiryOf(client, elsewhere, { Email: email })
    const hereExport = await request(client, here, { Tipo: 'Acceso', Email: email })
    const theirs = await request(client, elsewhere, { Tipo: 'Acceso', Email: email })
    await request(client, here, { Tipo: 'Supresion', Email: email.toUpperCase() })
    assert.isTrue(await erased(sid))
    ;(await client.get(hereExport.done._links.datos.href).bearerToken(here.token)).assertStatus(410)
    // The other agency (another controller) keeps its inquiry and its export.
    const kept = await client.get(theirs.done._links.datos.href).bearerToken(elsewhere.token)
    kept.assertStatus(200)
    assert.equal(kept.body().Consultas[0].Interesado.Email, email)
  }).timeout(60_000)

  test('retention that erases an exported inquiry purges the export', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const email = uniqueEmail('vieja')
    const sid = await inquiryOf(client, world, { Email: email })
    const kept = await inquiryOf(client, world, { Email: uniqueEmail('joven') })
    const old = await request(client, world, { Tipo: 'Acceso', Email: email })
    const young = await request(client, world, {
      Tipo: 'Acceso',
      Email: (await db.from('inquiries').where('sid', kept).first()).email,
    })
    // Her inquiry is 731 days old (the default retention is 730).
    await db
      .from('inquiries')
      .where('sid', sid)
      .update({ received_at: DateTime.now().minus({ days: 731 }).toJSDate() })
    const retention = await app.container.make(ApplyRetention)
    const run = await retention.execute({ batch: 50 })
    assert.isAtLeast(run.exportsPurged, 1)
    ;(await client.get(old.done._links.datos.href).bearerToken(world.token)).assertStatus(410)
    ;(await client.get(young.done._links.datos.href).bearerToken(world.token)).assertStatus(200)
  }).timeout(60_000)
})

test.group('Privacy: what each linked app may see and change (docs/design.md §25)', (group) => {
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['privacy.request'] })
  })

  async function delivery(inquirySid: string, appId: number, channel: string, target: string) {
    const inquiry = await db.from('inquiries').where('sid', inquirySid).first()
    await db.table('deliveries').insert({
      channel,
      owner_type: 'inquiry',
      owner_id: String(inquiry.id),
      app_id: appId,
      target,
      status: 'delivered',
      message_id: `msg_${randomBytes(6).toString('hex')}`,
      payload: JSON.stringify({ body: '{}' }),
      queue: `leads.${channel}`,
      created_at: new Date(),
    })
  }

  test("another app's export: its own targets in full, the other app's as channels; every app lists the requests", async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const colleague = await createCaller('Colleague CRM')
    await grantAgency(colleague.app, world.adminMail)
    const other = { ...world, token: colleague.token }
    const email = uniqueEmail('marta')
    const sid = await inquiryOf(client, world, { Email: email })
    const privateHook = `https://crm-${randomBytes(4).toString('hex')}.example/hook`
    const privateBox = uniqueEmail('ventas')
    await delivery(sid, world.caller.id, 'webhook', privateHook)
    await delivery(sid, world.caller.id, 'adfMail', privateBox)
    const ownHook = `https://colleague-${randomBytes(4).toString('hex')}.example/leads`
    await delivery(sid, colleague.app.id, 'webhook', ownHook)

    const { done, data } = await request(client, other, { Tipo: 'Acceso', Email: email })
    const text = JSON.stringify(data)
    assert.notInclude(text, privateHook)
    assert.notInclude(text, privateBox)
    assert.sameDeepMembers(
      data.Consultas[0].Entregas.map((entrega: any) => [entrega.Canal, entrega.Destino]),
      [
        ['PublicacionConsultadaWebHook', 'Webhook'],
        ['PublicacionConsultadaAdfMail', 'AdfMail'],
        ['PublicacionConsultadaWebHook', ownHook],
      ]
    )

    // The first app lists the colleague's request and reads it, without its export.
    const list = await client
      .get(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(world.token)
    list.assertStatus(200)
    const entry = list.body()._entries.find((item: any) => item.Id === done.Id)
    assert.exists(entry)
    assert.notProperty(entry._links, 'datos')
    const one = await client
      .get(`/v3/privacidad/${world.adminMail}/solicitudes/${done.Id}`)
      .bearerToken(world.token)
    one.assertStatus(200)
    assert.notProperty(one.body()._links, 'datos')
    const theirs = await client.get(done._links.datos.href).bearerToken(world.token)
    theirs.assertStatus(403)
    assert.notInclude(JSON.stringify(theirs.body()), email)
    // And the colleague lists the first app's requests as well.
    const mine = await fileRequest(client, world, { Tipo: 'Acceso', Email: uniqueEmail('x') })
    const listed = await client
      .get(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(colleague.token)
    assert.includeMembers(
      listed.body()._entries.map((item: any) => item.Id),
      [mine.body().Id, done.Id]
    )
  }).timeout(60_000)

  test('RetencionDias: the inviting app changes it; another linked app reads it and gets 403', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const colleague = await createCaller('Colleague portal')
    await grantAgency(colleague.app, world.adminMail)
    const base = `/v3/privacidad/${world.adminMail}`
    const refused = await client.put(base).bearerToken(colleague.token).json({ RetencionDias: 30 })
    refused.assertStatus(403)
    assert.equal(refused.header('content-type'), 'application/problem+json; charset=utf-8')
    assert.properties(refused.body().Errors, ['RetencionDias'])
    const read = await client.get(base).bearerToken(colleague.token)
    read.assertStatus(200)
    assert.equal(read.body().RetencionDias, 730)
    assert.notProperty(read.body()._links, 'edit')
    const changed = await client.put(base).bearerToken(world.token).json({ RetencionDias: 30 })
    changed.assertStatus(200)
    assert.equal(changed.body()._links.edit.method, 'PUT')
    assert.equal((await client.get(base).bearerToken(colleague.token)).body().RetencionDias, 30)
  })
})

test.group('Privacy: buyers’ form pages kept for replay (docs/privacy.md)', (group) => {
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['privacy.request'] })
  })

  const keyOf = (html: string) => /name="ClaveEnvio" value="([^"]+)"/.exec(html)![1]

  /** A form answered 400 (no Nombre) with these fields; the key it was kept under. */
  async function refusedForm(client: any, path: string, fields: Record<string, string>) {
    const { page, csrf, who } = await openForm(client, path)
    const key = keyOf(page.text())
    const response = await postForm(client, `${path}/consultas`, who, {
      ...formFields({ Nombre: '', Email: '', Telefono: '' }),
      ...fields,
      _csrf: csrf,
      ClaveEnvio: key,
    })
    response.assertStatus(400)
    return key
  }

  async function keptBody(key: string) {
    const row = await db.from('idempotency_keys').where('app_id', 0).where('key', key).first()
    return Buffer.from(row.response_body).toString('utf8')
  }

  test('found by the e-mail in another case and by a phone typed alone; another buyer’s stays', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const path = `/autos/${world.listing.slug}`
    const email = `Paula.${randomBytes(4).toString('hex')}@Example.com`
    const number = subscriber()
    const byEmail = await refusedForm(client, path, { Email: email.toUpperCase() })
    const byPhone = await refusedForm(client, path, { Telefono: `011 15 ${number}` })
    const otherEmail = uniqueEmail('otra')
    const other = await refusedForm(client, path, { Email: otherEmail })
    assert.include(await keptBody(byEmail), email.toUpperCase())
    assert.include(await keptBody(byPhone), `011 15 ${number}`)

    const { done } = await request(client, world, {
      Tipo: 'Supresion',
      Email: email.toLowerCase(),
      Telefono: `+54 9 11 ${number}`,
    })
    assert.equal(done.Consultas, 0)
    assert.equal(await keptBody(byEmail), '')
    assert.equal(await keptBody(byPhone), '')
    assert.include(await keptBody(other), otherEmail)
  }).timeout(60_000)
})
