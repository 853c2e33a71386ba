import { test } from '@japa/runner'
import { randomBytes, randomInt } from 'node:crypto'
import { mkdir, writeFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import { Webhook } from 'standardwebhooks'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { mailDirectory, messageIdOf } from '#core/mail/mail_files'
import { mailMessageId } from '#core/outbound/deliveries'
import ApplyRetention from '#buyers/services/privacy/apply_retention'
import InquiryStore, { findBuyerQuery } from '#leads/stores/inquiry_store'
import { matchKeys, searchKeys } from '#buyers/services/privacy/matching'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency, uniqueEmail } from '#tests/helpers/agencies'
import type { Receiver } from '#tests/helpers/receiver'
import type { SmtpSink } from '#tests/helpers/smtp_sink'
import { captureLogs } from '#tests/helpers/logs'
import {
  configureNotifications,
  dealerWorld,
  deliveriesOf,
  inquiryBody,
  insertInquiries,
  postInquiry,
  settledDeliveries,
  sidOf,
  until,
  leadHarness,
} from '#tests/helpers/leads'
import {
  dataDirFiles,
  dumpDatabase,
  fileRequest,
  finished,
  secretForms,
} from '#tests/helpers/privacy'

const SECRET = 'una-clave-de-eventos-de-prueba-123'

/** A buyer whose every field is unique to this run (ASCII: found as is in dumps and files). */
function person() {
  const tag = randomBytes(5).toString('hex')
  const four = String(randomInt(1000, 9999))
  const six = String(randomInt(100000, 999999))
  return {
    Nombre: `Nomb${tag}`,
    Apellido: `Apel${tag}`,
    Email: `buyer.${tag}@example.com`,
    Telefono: `+54 9 11 ${six.slice(0, 2)}${four.slice(0, 2)}-${four}`,
    DocIdentidad: `3${six.slice(0, 1)}.${six.slice(1, 4)}.${six.slice(3, 6)}`,
    Comentario: `Mensaje ${tag} sobre el auto`,
    Ciudad: `Ciudad${tag}`,
  }
}

function identifiersOf(buyer: ReturnType<typeof person>) {
  const phoneDigits = buyer.Telefono.replace(/\D/g, '')
  return [
    buyer.Nombre,
    buyer.Apellido,
    buyer.Email,
    buyer.Telefono,
    phoneDigits,
    buyer.DocIdentidad,
    buyer.DocIdentidad.replace(/\D/g, ''),
    buyer.Comentario,
    buyer.Ciudad,
  ]
}

function fullConfig(receiver: Receiver, extra: { adfMail: string; bcc: string[] }) {
  return {
    PublicacionConsultadaWebHook: {
      Callback: receiver.url('/webhook'),
      Secret: SECRET,
      Activo: true,
    },
    PublicacionConsultadaAdfHook: { Callback: receiver.url('/adf'), Activo: true },
    PublicacionConsultadaAdfMail: { Email: extra.adfMail, Activo: true },
    PublicacionConsultadaHtmlMail: { EmailsCCO: extra.bcc.join(', '), Activo: true },
  }
}

async function subscribeConsultas(client: any, token: string, receiver: Receiver) {
  const response = await client
    .put('/v3/appnotificaciones/consultas')
    .bearerToken(token)
    .json({ Callback: receiver.url('/events'), Secret: SECRET })
  response.assertStatus(200)
}

test.group('Privacy: suppression of a buyer everywhere (docs/design.md §16)', (group) => {
  let receiver: Receiver
  let sink: SmtpSink

  leadHarness(group, (parts) => ({ receiver, sink } = parts), ['apps.webhook', 'privacy.request'])

  test('every copy is emptied; counts and pages stay; the apps hear InteresadoSuprimido, signed', async ({
    client,
    assert,
  }) => {
    const logs = captureLogs('debug')
    try {
      const world = await dealerWorld()
      await subscribeConsultas(client, world.token, receiver)
      const adfMail = uniqueEmail('crm')
      const bcc = [uniqueEmail('ventas')]
      await configureNotifications(client, world, fullConfig(receiver, { adfMail, bcc }))

      const buyer = person()
      const other = person()
      // Two inquiries of the buyer (one with an upper-case e-mail, another phone format),
      // one of somebody else; each POST with an Idempotency-Key (its response is kept 24 h).
      const bodies = [
        inquiryBody(world.listing.externalId, buyer),
        inquiryBody(world.listing.externalId, {
          ...buyer,
          Email: buyer.Email.toUpperCase(),
          Telefono: buyer.Telefono.replace('+54 9 ', '0'),
        }),
        inquiryBody(world.listing.externalId, other),
      ]
      const sids: string[] = []
      for (const body of bodies) {
        const created = await client
          .post(`/v3/consultas/${world.adminMail}`)
          .bearerToken(world.token)
          .header('Idempotency-Key', `k-${randomBytes(6).toString('hex')}`)
          .json(body)
        created.assertStatus(201)
        sids.push(sidOf(created.header('location')!))
      }
      const [first, second, kept] = sids
      for (const sid of sids) await settledDeliveries(sid, 4)
      // A resend, kept too (its answer carries the whole Consulta).
      await client
        .post(`/v3/consultas/${world.adminMail}/${first}/resendwebhook`)
        .bearerToken(world.token)
        .header('Idempotency-Key', `r-${randomBytes(6).toString('hex')}`)
        .then((r) => r.assertStatus(202))
      await settledDeliveries(first, 4)
      // Three ConsultaRecibida events, plus webhooks and ADF hooks (3 + 1 resend each).
      await until(
        () => Promise.resolve(receiver.requests.filter((r) => r.path === '/events').length),
        (count) => count >= 3
      )

      // Mail as the eml transport writes it without SMTP: the sink's messages into DATA_DIR/mail.
      const mailIds = async (sid: string) =>
        (await deliveriesOf(sid))
          .filter((d) => d.channel === 'adfMail' || d.channel === 'htmlMail')
          .map((d) => mailMessageId(d))
      const buyersMailIds = [...(await mailIds(first)), ...(await mailIds(second))]
      const othersMailIds = await mailIds(kept)
      assert.lengthOf(buyersMailIds, 4) // ADF and HTML mail of two inquiries
      await until(
        () => Promise.resolve(sink.messages.map((mail) => messageIdOf(mail.raw))),
        (ids) => [...buyersMailIds, ...othersMailIds].every((id) => ids.includes(id))
      )
      const directory = mailDirectory()
      await mkdir(directory, { recursive: true })
      const fileOf = new Map<string, string>()
      for (const mail of sink.messages) {
        const id = messageIdOf(mail.raw)!
        if (![...buyersMailIds, ...othersMailIds].includes(id)) continue
        const name = `${Date.now()}-${randomBytes(6).toString('hex')}.eml`
        await writeFile(join(directory, name), mail.raw)
        fileOf.set(id, name)
      }
      // A buyers' form confirmation kept for replay (app 0), naming the first inquiry.
      await db.table('idempotency_keys').insert({
        app_id: 0,
        method: 'POST',
        path: `/autos/x/consultas`,
        key: `form-${randomBytes(6).toString('hex')}`,
        fingerprint: 'f'.repeat(64),
        response_status: 303,
        response_headers: JSON.stringify({ location: '/autos/x/consulta-enviada' }),
        response_body: Buffer.from(''),
        response_extra: JSON.stringify({
          consultaEnviada: { name: buyer.Nombre, contact: buyer.Email, reference: first },
        }),
      })

      // A buyers' form answered 400 (kept for replay too): its page echoes the e-mail typed, and names no inquiry.
      await db.table('idempotency_keys').insert({
        app_id: 0,
        method: 'POST',
        path: `/autos/x/consultas`,
        key: `form-${randomBytes(6).toString('hex')}`,
        fingerprint: 'e'.repeat(64),
        response_status: 400,
        response_headers: JSON.stringify({ 'content-type': 'text/html; charset=utf-8' }),
        response_body: Buffer.from(`<input name="Email" value="${buyer.Email}">`),
      })

      const listBefore = await client
        .get(`/v3/consultas/${world.adminMail}`)
        .bearerToken(world.token)
      const before = listBefore.body()

      // The buyer asks: by e-mail in other case and the phone's last digits.
      const filed = await fileRequest(client, world, {
        Tipo: 'Supresion',
        Email: buyer.Email.toUpperCase(),
        Telefono: buyer.Telefono.replace(/\D/g, '').slice(-10),
      })
      const location = filed.header('location')!
      assert.match(location, /\/v3\/privacidad\/.+\/solicitudes\/[0-9a-f-]{36}$/)
      assert.equal(filed.body().Estado, 'Pendiente')
      assert.equal(filed.body().Tipo, 'Supresion')
      assert.isNull(filed.body().Consultas)
      const done = await finished(client, world, filed.body().Id)
      assert.equal(done.Consultas, 2)
      assert.isNotNull(done.Terminada)

      // The event reached the app's receiver, signed, naming both inquiries.
      const [event] = await until(
        () =>
          Promise.resolve(
            receiver.requests.filter(
              (r) => r.path === '/events' && r.json().Tipo === 'InteresadoSuprimido'
            )
          ),
        (found) => found.length >= 1
      )
      new Webhook(new TextEncoder().encode(SECRET), { format: 'raw' }).verify(event.body, {
        'webhook-id': event.headers['webhook-id'] as string,
        'webhook-timestamp': event.headers['webhook-timestamp'] as string,
        'webhook-signature': event.headers['webhook-signature'] as string,
      })
      const payload = event.json()
      assert.equal(payload.Topico, 'consultas')
      assert.sameMembers(payload.Datos.Consultas, [
        `/v3/consultas/${world.adminMail}/${first}`,
        `/v3/consultas/${world.adminMail}/${second}`,
      ])

      // Counts and pages unchanged: the same entries in the same order, the buyer's fields null.
      const after = (
        await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(world.token)
      ).body()
      assert.equal(after.Total, before.Total)
      assert.deepEqual(
        after._entries.map((entry: any) => entry._links.self.href),
        before._entries.map((entry: any) => entry._links.self.href)
      )
      const erased = after._entries.find((entry: any) => entry._links.self.href.endsWith(first))
      assert.include(erased.Interesado, {
        Nombre: null,
        Apellido: null,
        Email: null,
        Telefono: null,
        DocIdentidad: null,
        Comentario: null,
        Ciudad: null,
      })
      assert.equal(erased.Auto.ExternalId, world.listing.externalId)
      const untouched = after._entries.find((entry: any) => entry._links.self.href.endsWith(kept))
      assert.equal(untouched.Interesado.Email, other.Email)

      // Resending an erased inquiry: 410.
      const resend = await client
        .post(`/v3/consultas/${world.adminMail}/${first}/resendwebhook`)
        .bearerToken(world.token)
      resend.assertStatus(410)

      // The whole database and every file under DATA_DIR: the buyer appears nowhere.
      const dump = await dumpDatabase()
      const files = await dataDirFiles()
      for (const secret of identifiersOf(buyer)) {
        for (const form of secretForms(secret)) {
          assert.notInclude(dump.text, form, `${secret} in the database (${dump.how})`)
          for (const file of files) assert.notInclude(file.text, form, `${secret} in ${file.path}`)
        }
      }
      // The dump and the files are real: somebody else's data is there.
      assert.include(dump.text, other.Email)
      const left = await readdir(directory)
      for (const id of buyersMailIds) assert.notInclude(left, fileOf.get(id)!)
      for (const id of othersMailIds) assert.include(left, fileOf.get(id)!)

      // Personal data never reached the logs (which did record the requests and jobs).
      assert.isAbove(logs.records.length, 10)
      const logged = JSON.stringify(logs.records)
      for (const secret of identifiersOf(buyer)) assert.notInclude(logged, secret)
    } finally {
      logs.restore()
    }
  }).timeout(90_000)

  test('access: the export of the inquiries as the API shows them with Entregas; 30 days, then 410', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await configureNotifications(client, world, {
      PublicacionConsultadaWebHook: { Callback: receiver.url('/hook'), Activo: true },
    })
    const buyer = person()
    const created = await postInquiry(client, world, inquiryBody(world.listing.externalId, buyer))
    const sid = sidOf(created.header('location')!)
    await settledDeliveries(sid, 1)

    const filed = await fileRequest(client, world, {
      Tipo: 'acceso',
      DocIdentidad: buyer.DocIdentidad.replace(/\./g, ''),
    })
    const received = DateTime.fromISO(filed.body().Recibida)
    assert.equal(
      DateTime.fromISO(filed.body().Vence).toMillis(),
      received.plus({ days: 10 }).toMillis()
    )
    assert.notProperty(filed.body()._links, 'datos')
    const done = await finished(client, world, filed.body().Id)
    assert.equal(done.Consultas, 1)
    assert.equal(done._links.datos.href, `${new URL(filed.header('location')!).pathname}/datos`)

    const data = await client.get(done._links.datos.href).bearerToken(world.token)
    data.assertStatus(200)
    assert.equal(data.header('cache-control'), 'no-store')
    const [consulta] = data.body().Consultas
    assert.equal(consulta.Interesado.Email, buyer.Email)
    assert.equal(consulta._links.self.href, `/v3/consultas/${world.adminMail}/${sid}`)
    assert.deepEqual(
      consulta.Entregas.map((entrega: any) => [entrega.Canal, entrega.Estado]),
      [['PublicacionConsultadaWebHook', 'Entregada']]
    )
    assert.equal(consulta.Entregas[0].Destino, receiver.url('/hook'))
    // The reference form.
    const ref = await client
      .get(done._links.datos.href)
      .bearerToken(world.token)
      .header('Accept', 'application/vnd.service.ref+json')
    ref.assertStatus(200)
    assert.equal(ref.body().href, done._links.datos.href)

    // 30 days later the daily job has purged it: 410; the request itself stays.
    await db
      .from('privacy_requests')
      .where('id', done.Id)
      .update({ export_expires_at: DateTime.now().minus({ minutes: 1 }).toJSDate() })
    const retention = await app.container.make(ApplyRetention)
    await retention.execute({ maxBatches: 0 })
    const row = await db.from('privacy_requests').where('id', done.Id).first()
    assert.isNull(row.export)
    ;(await client.get(done._links.datos.href).bearerToken(world.token)).assertStatus(410)
    ;(
      await client
        .get(`/v3/privacidad/${world.adminMail}/solicitudes/${done.Id}`)
        .bearerToken(world.token)
    ).assertStatus(200)
  }).timeout(60_000)
})

test.group('Privacy: requests, their list, isolation and validation', (group) => {
  group.setup(async () => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['privacy.request'] })
  })

  test('suppression is due 5 business days (Monday to Friday) after reception', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const filed = await fileRequest(client, world, { Tipo: 'Supresion', Email: uniqueEmail('x') })
    const received = DateTime.fromISO(filed.body().Recibida, { setZone: true })
    const due = DateTime.fromISO(filed.body().Vence, { setZone: true })
    // Whatever today is: the due date is a weekday at the same time of day, and exactly five
    // Monday–Friday dates lie after the reception's date, up to and including the due date's.
    // (Every weekday's figure, with a fixed clock: tests/unit/buyers/privacy_actions.spec.ts.)
    assert.isAtMost(due.weekday, 5)
    assert.equal(due.toFormat('HH:mm:ss.SSS'), received.toFormat('HH:mm:ss.SSS'))
    let businessDays = 0
    for (let day = received.plus({ days: 1 }); day <= due; day = day.plus({ days: 1 })) {
      if (day.weekday <= 5) businessDays++
    }
    assert.equal(businessDays, 5)
    assert.isAtLeast(due.diff(received, 'days').days, 5)
    assert.isAtMost(due.diff(received, 'days').days, 7)
  })

  test('the list: newest first, identifiers masked, the paging shape of inquiries', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await fileRequest(client, world, { Tipo: 'Acceso', Email: 'juana.perez@example.com' })
    await fileRequest(client, world, {
      Tipo: 'Supresion',
      Telefono: '+54 11 4567-1234',
      DocIdentidad: '30.123.456',
    })
    const list = await client
      .get(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(world.token)
    list.assertStatus(200)
    const body = list.body()
    assert.equal(body.Total, 2)
    assert.equal(body.Pagina, 1)
    assert.equal(body.PerPagina, 100)
    assert.equal(body._entries[0].Tipo, 'Supresion')
    assert.deepEqual(body._entries[0].Interesado, {
      Email: null,
      Telefono: '***1234',
      DocIdentidad: '***3456',
    })
    assert.deepEqual(body._entries[1].Interesado, {
      Email: 'j***@example.com',
      Telefono: null,
      DocIdentidad: null,
    })
    assert.notInclude(JSON.stringify(body), 'juana.perez')
    const refs = await client
      .get(`/v3/privacidad/${world.adminMail}/solicitudes`)
      .bearerToken(world.token)
      .header('Accept', 'application/vnd.service.ref+json')
    assert.match(refs.body()._entries[1].title, /^Acceso: j\*\*\*@example.com$/)
  })

  test('an app not linked: 404 on reads, 403 on POST; a linked one reads it; another agency: 404', async ({
    client,
  }) => {
    const world = await dealerWorld()
    const filed = await fileRequest(client, world, { Tipo: 'Acceso', Email: uniqueEmail('y') })
    const id = filed.body().Id
    const base = `/v3/privacidad/${world.adminMail}`
    const stranger = await createCaller('Stranger app')
    ;(await client.get(`${base}/solicitudes`).bearerToken(stranger.token)).assertStatus(404)
    ;(await client.get(`${base}/solicitudes/${id}`).bearerToken(stranger.token)).assertStatus(404)
    ;(await client.get(`${base}`).bearerToken(stranger.token)).assertStatus(404)
    ;(
      await client
        .post(`${base}/solicitudes`)
        .bearerToken(stranger.token)
        .json({ Tipo: 'Acceso', Email: 'a@example.com' })
    ).assertStatus(403)
    ;(await client.put(base).bearerToken(stranger.token).json({ RetencionDias: 60 })).assertStatus(
      403
    )
    // Another app linked to the same agency reads the agency's request (docs/design.md §25).
    const colleague = await createCaller('Colleague app')
    await grantAgency(colleague.app, world.adminMail)
    ;(await client.get(`${base}/solicitudes/${id}`).bearerToken(colleague.token)).assertStatus(200)
    // The same app, another of its agencies.
    const second = await createAgency(world.caller)
    ;(
      await client
        .get(`/v3/privacidad/${second.agency.adminMail}/solicitudes/${id}`)
        .bearerToken(world.token)
    ).assertStatus(404)
    ;(await client.get(`${base}/solicitudes/not-a-uuid`).bearerToken(world.token)).assertStatus(404)
  })

  test('validation: an identifier, phone digits, Tipo, RetencionDias 30..3650', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const post = (body: object) =>
      client
        .post(`/v3/privacidad/${world.adminMail}/solicitudes`)
        .bearerToken(world.token)
        .json(body)
    const none = await post({ Tipo: 'Acceso' })
    none.assertStatus(400)
    assert.properties(none.body().Errors, ['_'])
    // A phone without area code (7 or 8 digits) names nobody alone; with an e-mail it does.
    const short = await post({ Tipo: 'Acceso', Telefono: '123-4567' })
    short.assertStatus(400)
    assert.properties(short.body().Errors, ['Telefono'])
    const local = await post({ Tipo: 'Acceso', Telefono: '1234-5678' })
    local.assertStatus(400)
    assert.properties(local.body().Errors, ['Telefono'])
    ;(await post({ Tipo: 'Acceso', Telefono: '1234-5678', Email: 'a@example.com' })).assertStatus(
      202
    )
    ;(await post({ Tipo: 'Acceso', Telefono: '11 4444-5678' })).assertStatus(202)
    const document = await post({ Tipo: 'Acceso', DocIdentidad: '12.345' })
    document.assertStatus(400)
    assert.properties(document.body().Errors, ['DocIdentidad'])
    ;(await post({ Tipo: 'Acceso', DocIdentidad: '123.456' })).assertStatus(202)
    const kind = await post({ Tipo: 'Borrar', Email: 'a@example.com' })
    kind.assertStatus(400)
    assert.properties(kind.body().Errors, ['Tipo'])
    const mail = await post({ Tipo: 'Acceso', Email: 'no-es-un-correo' })
    mail.assertStatus(400)
    assert.properties(mail.body().Errors, ['Email'])
    const unknown = await post({ Tipo: 'Acceso', Email: 'a@example.com', Nombre: 'x' })
    unknown.assertStatus(400)
    assert.properties(unknown.body().Errors, ['Nombre'])

    const put = (days: unknown) =>
      client
        .put(`/v3/privacidad/${world.adminMail}`)
        .bearerToken(world.token)
        .json({ RetencionDias: days })
    ;(await put(29)).assertStatus(400)
    ;(await put(3651)).assertStatus(400)
    ;(await put('60')).assertStatus(400)
    const low = await put(30)
    low.assertStatus(200)
    assert.equal(low.body().RetencionDias, 30)
    ;(await put(3650)).assertStatus(200)
    const shown = await client.get(`/v3/privacidad/${world.adminMail}`).bearerToken(world.token)
    assert.equal(shown.body().RetencionDias, 3650)
    assert.deepEqual(shown.body()._links.edit, {
      href: `/v3/privacidad/${world.adminMail}`,
      method: 'PUT',
    })
  })

  test('a fresh agency shows the default retention, BUYER_DATA_RETENTION_DAYS (730)', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const shown = await client.get(`/v3/privacidad/${world.adminMail}`).bearerToken(world.token)
    shown.assertStatus(200)
    assert.equal(shown.body().RetencionDias, 730)
  })
})

test.group('Privacy: retention (docs/design.md §16)', () => {
  test("inquiries older than the agency's retention lose the buyer; younger ones keep it", async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    await client
      .put(`/v3/privacidad/${world.adminMail}`)
      .bearerToken(world.token)
      .json({ RetencionDias: 30 })
      .then((r) => r.assertStatus(200))
    const defaults = await dealerWorld()
    const now = DateTime.now()
    const day = (days: number, minutes: number) => now.minus({ days }).plus({ minutes }).toJSDate()
    // Both sides of each edge, a minute away from it.
    const [old30, young30] = await insertInquiries(
      [{ receivedAt: day(30, -1) }, { receivedAt: day(30, 1) }],
      { appId: world.caller.id, agencyId: world.fixture.agency.id }
    )
    const [old730, young730] = await insertInquiries(
      [{ receivedAt: day(730, -1) }, { receivedAt: day(730, 1) }],
      { appId: defaults.caller.id, agencyId: defaults.fixture.agency.id }
    )
    const retention = await app.container.make(ApplyRetention)
    const run = await retention.execute({ now: DateTime.now(), batch: 50 })
    assert.isAtLeast(run.erased, 2)
    const rows = await db
      .from('inquiries')
      .whereIn('sid', [old30, young30, old730, young730])
      .select('sid', 'email', 'buyer_erased_at')
    const bySid = new Map(rows.map((row) => [row.sid, row]))
    assert.isNull(bySid.get(old30).email)
    assert.isNotNull(bySid.get(old30).buyer_erased_at)
    assert.isNotNull(bySid.get(young30).email)
    assert.isNull(bySid.get(old730).email)
    assert.isNotNull(bySid.get(young730).email)
    assert.lengthOf(run.batchDbMs, run.batches)
    const audit = await db
      .from('privacy_audit')
      .where('source', 'retention')
      .orderBy('id', 'desc')
      .first()
    assert.isNull(audit.subject_hmac)
  }).timeout(60_000)

  test('delivery payloads are emptied once the resend window and retries are over', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const created = await postInquiry(client, world)
    const sid = sidOf(created.header('location')!)
    const inquiry = await db.from('inquiries').where('sid', sid).first()
    const insert = (createdAt: Date, status: string) =>
      db
        .table('deliveries')
        .insert({
          channel: 'webhook',
          owner_type: 'inquiry',
          owner_id: String(inquiry.id),
          app_id: world.caller.id,
          target: 'https://hooks.example/w',
          status,
          message_id: `msg_${randomBytes(6).toString('hex')}`,
          payload: JSON.stringify({ body: '{"x":1}' }),
          queue: 'leads.webhook',
          created_at: createdAt,
        })
        .returning('id')
    const [[oldDelivered], [oldOpen], [young]] = await Promise.all([
      insert(DateTime.now().minus({ days: 11 }).toJSDate(), 'delivered'),
      insert(DateTime.now().minus({ days: 11 }).toJSDate(), 'failed'),
      insert(DateTime.now().minus({ days: 2 }).toJSDate(), 'delivered'),
    ])
    const retention = await app.container.make(ApplyRetention)
    await retention.execute({ maxBatches: 0 })
    const payload = async (row: { id: string }) =>
      (await db.from('deliveries').where('id', row.id).first()).payload
    assert.deepEqual(await payload(oldDelivered), {})
    assert.deepEqual(await payload(oldOpen), { body: '{"x":1}' })
    assert.deepEqual(await payload(young), { body: '{"x":1}' })
  })
})

test.group('Privacy: finding a buyer uses indexes only', () => {
  test('EXPLAIN of the lookup among 100 000 inquiries shows no sequential scan', async ({
    assert,
  }) => {
    const world = await dealerWorld()
    const agencyId = world.fixture.agency.id
    // Phones written three ways (international mobile, trunk + 15, plain); documents as DNI or CUIT.
    await db.rawQuery(
      `insert into inquiries (sid, app_id, agency_id, kind, origin, external_id, vehicle, email, phone,
         document_id, received_at, resend_open, resend_closes_at)
       select 'x' || md5(random()::text || g)::varchar(15), ?, ?, 'listing', 'App', 'bulk', '{}'::jsonb,
              'bulk' || g || '@example.com',
              case g % 3 when 0 then '+54 9 11 ' when 1 then '011 15 ' else '11 ' end || (40000000 + g),
              case g % 2 when 0 then (20000000 + g)::text else '20-' || (20000000 + g) || '-5' end,
              now() - make_interval(mins => g), false, now()
         from generate_series(1, 100000) g`,
      [world.caller.id, agencyId]
    )
    await db.rawQuery('analyze inquiries')
    const store = await app.container.make(InquiryStore)
    const keys = searchKeys(
      matchKeys({ email: 'Bulk777@example.com', phone: '+54 11 4000-0777', document: '20000777' })
    )
    const query = findBuyerQuery(keys, agencyId)!
    const plan = await explainPlan(query.sql, query.values)
    const nodes = nodeTypes(plan)
    assert.notInclude(nodes, 'Seq Scan', JSON.stringify(nodes))
    assert.includeMembers(nodes, ['BitmapOr'])
    const found = await store.findBuyer(keys, agencyId)
    assert.deepEqual(
      found.map((row) => row.email),
      ['bulk777@example.com']
    )
    // Each identifier alone finds the one inquiry, whichever form it was stored or asked in
    // (777: `+54 9 11 40000777`, CUIT; 778: `011 15 40000778`, DNI; 779: `11 40000779`, CUIT).
    const by = (who: Parameters<typeof matchKeys>[0]) =>
      store.findBuyer(searchKeys(matchKeys(who)), agencyId)
    for (const phone of ['011 15 4000-0777', '+54 9 11 4000 0777', '(011) 4000-0777'])
      assert.lengthOf(await by({ phone }), 1, phone)
    assert.lengthOf(await by({ phone: '+54 9 11 4000-0778' }), 1)
    assert.lengthOf(await by({ phone: '011 15 4000-0779' }), 1)
    assert.lengthOf(await by({ phone: '0351 4000-0777' }), 0) // another area code
    assert.lengthOf(await by({ document: '20000777' }), 1) // the DNI asked, a CUIT stored
    assert.lengthOf(await by({ document: '27-20000778-1' }), 1) // a CUIT asked, the DNI stored
    assert.lengthOf(await by({ document: '20.000.780' }), 1) // DNI and DNI
    for (const who of [{ phone: '011 15 4000-0777' }, { document: '27-20000779-1' }]) {
      const alone = findBuyerQuery(searchKeys(matchKeys(who)), agencyId)!
      const arms = nodeTypes(await explainPlan(alone.sql, alone.values))
      assert.notInclude(arms, 'Seq Scan', JSON.stringify(arms))
    }
  }).timeout(60_000)
})

async function explainPlan(sql: string, values: unknown[]) {
  const { poolQuery } = await import('#core/database/pool_query')
  const [row] = await poolQuery<Record<string, any>>(`explain (format json) ${sql}`, values)
  return row['QUERY PLAN'][0].Plan
}

function nodeTypes(plan: any): string[] {
  return [plan['Node Type'], ...(plan.Plans ?? []).flatMap(nodeTypes)]
}

test.group('Privacy: the notice at collection', () => {
  test('the listing form tells who receives the data and links /privacidad', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const page = await client.get(`/autos/${world.listing.slug}`)
    page.assertStatus(200)
    const html = page.text()
    assert.include(html, 'id="aviso-privacidad"')
    assert.include(html, 'href="/privacidad"')
    assert.include(html, 'Ley 25.326')
    const notice = await client.get('/privacidad')
    notice.assertStatus(200)
    assert.match(notice.header('content-type')!, /^text\/html/)
    for (const words of [
      'Quién recibe tus datos',
      'Para qué',
      'Cuánto tiempo',
      'Acceso',
      'supresión',
      'Cómo ejercerlos',
    ])
      assert.include(notice.text(), words)
  })
})

test.group('Privacy: support commands (ace privacy:export|privacy:forget)', () => {
  async function ace(name: string, args: string[]) {
    const kernel = await app.container.make('ace')
    return kernel.exec(name, args)
  }

  test('export and forget at one agency or all, each audited without personal data', async ({
    client,
    assert,
  }) => {
    const one = await dealerWorld()
    const two = await dealerWorld()
    const buyer = person()
    const a = sidOf(
      (await postInquiry(client, one, inquiryBody(one.listing.externalId, buyer))).header(
        'location'
      )!
    )
    const b = sidOf(
      (await postInquiry(client, two, inquiryBody(two.listing.externalId, buyer))).header(
        'location'
      )!
    )

    const exported = await ace('privacy:export', [
      '--email',
      buyer.Email,
      '--agency',
      one.adminMail,
    ])
    assert.equal(exported.exitCode, 0)
    const auditExport = await db
      .from('privacy_audit')
      .where('source', 'command')
      .where('kind', 'access')
      .orderBy('id', 'desc')
      .first()
    assert.equal(auditExport.agency_id, one.fixture.agency.id)
    assert.equal(auditExport.matched, 1)
    assert.match(auditExport.subject_hmac, /^[0-9a-f]{64}$/)

    const forgot = await ace('privacy:forget', ['--telefono', buyer.Telefono])
    assert.equal(forgot.exitCode, 0)
    const rows = await db
      .from('inquiries')
      .whereIn('sid', [a, b])
      .select('email', 'buyer_erased_at')
    assert.isTrue(rows.every((row) => row.email === null && row.buyer_erased_at !== null))
    const audits = await db
      .from('privacy_audit')
      .where('source', 'command')
      .where('kind', 'erasure')
      .orderBy('id', 'desc')
      .limit(2)
    assert.sameMembers(
      audits.map((row) => row.agency_id),
      [one.fixture.agency.id, two.fixture.agency.id]
    )
    const audited = JSON.stringify(await db.from('privacy_audit'))
    for (const secret of identifiersOf(buyer)) assert.notInclude(audited, secret)

    const unknown = await ace('privacy:forget', [
      '--email',
      buyer.Email,
      '--agency',
      uniqueEmail('nadie'),
    ])
    assert.equal(unknown.exitCode, 1)
    const nothing = await ace('privacy:export', [])
    assert.equal(nothing.exitCode, 1)
    const shortPhone = await ace('privacy:forget', ['--telefono', '4567-123'])
    assert.equal(shortPhone.exitCode, 1)
  }).timeout(60_000)
})
