import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import { Webhook } from 'standardwebhooks'
import { settings } from '#core/settings'
import Invitation from '#agencies/models/invitation'
import Operator from '#agencies/models/operator'
import Branch from '#agencies/models/branch'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { raw } from '#tests/helpers/http'
import {
  invitationBody,
  inviteAndRead,
  mailingGroup,
  mailsTo,
  pathOf,
  postInvitation,
  registrationLink,
} from './support.js'

const SECRET = 'invitations-secret-0123456789'

function form(fields: Record<string, string>) {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept': 'text/html' },
    body: new URLSearchParams(fields).toString(),
  }
}

test.group('Agencies / invitation → registration, as a dealer app drives it', (group) => {
  const world = mailingGroup(group, { receiver: true })

  test('invite, read the mail, register through the page, receive the signed webhook, read the agency', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller('Dealer app')
    await client
      .put('/v3/appnotificaciones/invitaciones')
      .bearerToken(token)
      .json({ Callback: world.receiver.url('/hooks/invitaciones'), Secret: SECRET })
      .then((response) => response.assertStatus(200))

    const body = invitationBody()
    const mixedCase = body.AdminMail.replace('invited', 'Invited')
    const invited = await postInvitation(client, token, { ...body, AdminMail: mixedCase })
    const location = invited.header('location')!
    assert.equal(location, `${settings.publicUrl}/v3/agencias/${body.AdminMail}`)
    assert.equal(invited.body().Estado, 'Pendiente')

    // The real mail, through SMTP.
    const [message] = await mailsTo(world.sink, body.AdminMail)
    assert.equal(message.parsed.to?.[0].address, body.AdminMail)
    assert.include(message.parsed.subject ?? '', 'Autos del Plata')
    assert.include(message.parsed.text ?? '', 'contraseña de al menos 10 caracteres')
    const link = registrationLink(message)
    assert.match(link, new RegExp(`^${settings.publicUrl}/registro/`))

    // Pending: GET and OPTIONS on Location answer 202 with the invitation's state.
    for (const method of ['get', 'options'] as const) {
      const status = await client[method](pathOf(location)).bearerToken(token)
      status.assertStatus(202)
      assert.containsSubset(status.body(), {
        AdminMail: body.AdminMail,
        NombreComercial: 'Autos del Plata',
        Estado: 'Pendiente',
      })
      const sent = DateTime.fromISO(status.body().Enviada)
      const expires = DateTime.fromISO(status.body().Vence)
      assert.isTrue(sent.isValid && expires.isValid)
      assert.equal(Math.round(expires.diff(sent, 'days').days), settings.invitationTtlDays)
      assert.equal(status.body()._links.self.href, `/v3/agencias/${body.AdminMail}`)
    }

    // The page: accessible, Spanish, works without JavaScript.
    const page = await raw(pathOf(link), { headers: { accept: 'text/html' } })
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/)
    const html = await page.text()
    assert.include(html, '<html lang="es">')
    assert.include(html, 'Autos del Plata')
    assert.include(html, body.AdminMail)
    assert.include(html, 'Calle 7 1234, La Plata, Buenos Aires')
    assert.notInclude(html, '<script')
    assert.include(html, `<form method="post" action="${pathOf(link)}"`)
    for (const name of ['AdminNombre', 'AdminApellido', 'Password']) {
      assert.include(html, `<label for="${name}">`)
      assert.match(html, new RegExp(`<input id="${name}" name="${name}"`))
    }
    assert.include(html, 'value="Marta"')

    // A bad form comes back with the message next to the field.
    const invalid = await raw(
      pathOf(link),
      form({ AdminNombre: 'Marta', AdminApellido: 'Suárez', Password: 'corta' })
    )
    assert.equal(invalid.status, 400)
    const invalidHtml = await invalid.text()
    assert.match(invalidHtml, /<p class="error" id="Password-error">[^<]*10 caracteres/)
    assert.include(invalidHtml, 'aria-invalid="true"')
    assert.include(invalidHtml, 'value="Suárez"')

    const done = await raw(
      pathOf(link),
      form({ AdminNombre: 'Marta', AdminApellido: 'Suárez', Password: 'una-clave-larga' })
    )
    assert.equal(done.status, 201)
    assert.include(await done.text(), 'Registro completo')

    // The app's signed webhook, on the real receiver.
    const [hook] = await world.receiver.waitFor(1)
    assert.equal(hook.path, '/hooks/invitaciones')
    const payload = new Webhook(SECRET, { format: 'raw' }).verify(
      hook.rawBody.toString(),
      hook.headers as Record<string, string>
    ) as any
    assert.equal(payload.Tipo, 'InvitacionAceptada')
    assert.isTrue(DateTime.fromISO(payload.Momento).isValid)
    assert.deepEqual(payload.Agencia, {
      AdminMail: body.AdminMail,
      href: `/v3/agencias/${body.AdminMail}`,
      title: 'Autos del Plata',
    })

    // One envelope (docs/design.md §19): Id = webhook-id, the same body as the history's entry…
    assert.equal(payload.Id, hook.headers['webhook-id'])
    assert.deepEqual(payload, {
      Id: hook.headers['webhook-id'],
      Tipo: 'InvitacionAceptada',
      Momento: payload.Momento,
      Topico: 'invitaciones',
      Agencia: payload.Agencia,
      Recurso: { href: `/v3/agencias/${body.AdminMail}`, title: 'Autos del Plata' },
      Datos: {},
    })
    const history = await client.get('/v3/eventos?topico=invitaciones').bearerToken(token)
    history.assertStatus(200)
    const stored = history.body()._entries.find((entry: any) => entry.Id === payload.Id)
    assert.deepEqual(stored, payload)
    // …and the same members, field for field, as the test event of the topic.
    const tried = await client.post('/v3/appnotificaciones/invitaciones/prueba').bearerToken(token)
    tried.assertStatus(200)
    const [, probe] = await world.receiver.waitFor(2)
    const testEvent = new Webhook(SECRET, { format: 'raw' }).verify(
      probe.rawBody.toString(),
      probe.headers as Record<string, string>
    ) as any
    assert.equal(testEvent.Tipo, 'Prueba')
    assert.equal(testEvent.Id, probe.headers['webhook-id'])
    assert.deepEqual(Object.keys(testEvent).sort(), Object.keys(payload).sort())
    for (const key of Object.keys(payload)) assert.equal(typeof testEvent[key], typeof payload[key])

    // Registered: Location now answers 200 with the Agencia.
    const agency = await client.get(pathOf(location)).bearerToken(token)
    agency.assertStatus(200)
    assert.equal(agency.body().AdminMail, body.AdminMail)
    assert.equal(agency.body()._links.edit.method, 'PUT')
    const options = await client.options(pathOf(location)).bearerToken(token)
    options.assertStatus(200)

    const operators = await client.get(`/v3/operadores/${body.AdminMail}`).bearerToken(token)
    operators.assertStatus(200)
    assert.lengthOf(operators.body()._entries, 1)
    assert.containsSubset(operators.body()._entries[0], {
      Nombre: 'Marta',
      Apellido: 'Suárez',
      Email: body.AdminMail,
      Telefonos: ['+5492215550000'],
      Direcciones: [{ Region: 'Buenos Aires', Ciudad: 'La Plata', Direccion: 'Calle 7 1234' }],
      EsAdministradorAgencia: true,
    })

    const branches = await client.get(`/v3/sucursales/${body.AdminMail}`).bearerToken(token)
    branches.assertStatus(200)
    assert.containsSubset(branches.body()._entries, [
      {
        Telefono: '+5492215550000',
        Region: 'Buenos Aires',
        Ciudad: 'La Plata',
        Direccion: 'Calle 7 1234',
        Comercial: true,
      },
    ])

    // The administrator: password hashed, created through the API, phone recorded as WhatsApp.
    const admin = await Operator.findByOrFail('email', body.AdminMail)
    assert.isTrue(admin.createdViaApi)
    assert.equal(admin.whatsapp, '+5492215550000')
    assert.isNull(admin.workPhone)
    assert.notInclude(admin.passwordHash ?? '', 'una-clave-larga')
    assert.match(admin.passwordHash ?? '', /^\$/)
    const branch = await Branch.query()
      .where('address', 'Calle 7 1234')
      .where('email', body.AdminMail)
      .firstOrFail()
    assert.isTrue(branch.phoneIsWhatsapp)

    // The link is spent: page and JSON both say 410.
    const again = await raw(pathOf(link), { headers: { accept: 'text/html' } })
    assert.equal(again.status, 410)
    assert.include(await again.text(), 'ya fue usado o venció')
    const againJson = await raw(pathOf(link), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json' },
      body: JSON.stringify({ AdminNombre: 'X', AdminApellido: 'Y', Password: 'otra-clave-larga' }),
    })
    assert.equal(againJson.status, 410)
    assert.match(againJson.headers.get('content-type') ?? '', /application\/problem\+json/)

    // The e-mail is now known: a new invitation is a conflict.
    const conflict = await client
      .post('/v3/agencias')
      .bearerToken(token)
      .json(invitationBody({ AdminMail: body.AdminMail.toUpperCase() }))
    conflict.assertStatus(409)
    assert.property(conflict.body().Errors, 'AdminMail')
  })

  test('a phone in local form is a work phone, not WhatsApp', async ({ client, assert }) => {
    const { token } = await createCaller()
    const body = invitationBody({ Telefono: '0221 455-0000' })
    await postInvitation(client, token, body)
    const invitation = await Invitation.findByOrFail('admin_email', body.AdminMail)
    assert.equal(invitation.phone, '0221 455-0000')
    assert.isFalse(invitation.phoneIsWhatsapp)
  })

  test('registration through JSON answers 201 with the agency reference and Location', async ({
    client,
    assert,
  }) => {
    const { body, link } = await inviteAndRead(client, world.sink)
    const response = await raw(pathOf(link), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept': 'application/json' },
      body: JSON.stringify({
        AdminNombre: 'Marta',
        AdminApellido: 'Suárez',
        Password: '0123456789',
      }),
    })
    assert.equal(response.status, 201)
    assert.equal(
      response.headers.get('location'),
      `${settings.publicUrl}/v3/agencias/${body.AdminMail}`
    )
    assert.deepEqual(await response.json(), {
      AdminMail: body.AdminMail,
      href: `/v3/agencias/${body.AdminMail}`,
      title: 'Autos del Plata',
    })
  })

  test('registration form limits: names 1..50, password ≥ 10, on both sides', async ({
    client,
    assert,
  }) => {
    const { body, link } = await inviteAndRead(client, world.sink)
    const path = pathOf(link)
    const post = (fields: Record<string, string>) =>
      raw(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json' },
        body: JSON.stringify(fields),
      })
    const valid = {
      AdminNombre: 'N'.repeat(50),
      AdminApellido: 'A'.repeat(50),
      Password: 'p'.repeat(10),
    }
    for (const [field, value] of [
      ['AdminNombre', 'N'.repeat(51)],
      ['AdminApellido', 'A'.repeat(51)],
      ['AdminNombre', ''],
      ['AdminApellido', ''],
      ['Password', 'p'.repeat(9)],
    ]) {
      const response = await post({ ...valid, [field]: value })
      assert.equal(response.status, 400, `${field}=${value.length} chars`)
      const problem = (await response.json()) as any
      assert.deepEqual(Object.keys(problem.Errors), [field])
    }
    const registered = await post(valid)
    assert.equal(registered.status, 201)
    const admin = await Operator.findByOrFail('email', body.AdminMail)
    assert.equal(admin.firstName, 'N'.repeat(50))
  })

  test('concurrent first POSTs store one invitation; concurrent registrations register once', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const body = invitationBody()
    const posts = await Promise.all(
      [1, 2, 3].map(() => client.post('/v3/agencias').bearerToken(token).json(body))
    )
    assert.deepEqual(
      posts.map((response) => response.status()),
      [202, 202, 202]
    )
    assert.lengthOf(await Invitation.query().where('admin_email', body.AdminMail), 1)

    const path = pathOf(registrationLink((await mailsTo(world.sink, body.AdminMail))[0]))
    const register = () =>
      raw(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept': 'application/json' },
        body: JSON.stringify({
          AdminNombre: 'Marta',
          AdminApellido: 'Suárez',
          Password: '0123456789',
        }),
      })
    const statuses = (await Promise.all([register(), register()]))
      .map((response) => response.status)
      .sort()
    assert.deepEqual(statuses, [201, 410])
  })

  test('unknown token: 404 page', async ({ assert }) => {
    const response = await raw('/registro/no-such-token', { headers: { accept: 'text/html' } })
    assert.equal(response.status, 404)
    assert.include(await response.text(), 'Enlace de registro desconocido')
  })

  test('a second POST while pending answers 202 and keeps the same link; its mail waits for the 10-minute window', async ({
    client,
    assert,
  }) => {
    const { token, body, link: first } = await inviteAndRead(client, world.sink)
    await postInvitation(client, token, {
      ...body,
      NombreComercial: 'Autos del Plata SA',
    })
    // Once the window has passed (moved back in the database), the next POST mails the same link with the new data.
    await Invitation.query()
      .where('admin_email', body.AdminMail)
      .update({ lastMailedAt: DateTime.now().minus({ minutes: 10 }).toSQL() })
    await postInvitation(client, token, { ...body, NombreComercial: 'Autos del Plata SA' })
    const mails = await mailsTo(world.sink, body.AdminMail, 2)
    assert.lengthOf(mails, 2)
    assert.equal(registrationLink(mails[1]), first)
    assert.include(mails[1].parsed.subject ?? '', 'Autos del Plata SA')
    assert.lengthOf(await Invitation.query().where('admin_email', body.AdminMail), 1)
  })

  test('an e-mail of an existing operator or agency is a 409 problem with Errors', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, { collaborators: [colab] })
    for (const email of [fixture.agency.adminMail, colab.toUpperCase()]) {
      const response = await client
        .post('/v3/agencias')
        .bearerToken(token)
        .json(invitationBody({ AdminMail: email }))
      response.assertStatus(409)
      assert.match(response.header('content-type')!, /application\/problem\+json/)
      assert.equal(response.body().Status, 409)
      assert.isArray(response.body().Errors.AdminMail)
    }
    // Another app is told the same: the e-mail is known to the service.
    const { token: other } = await createCaller()
    ;(
      await client
        .post('/v3/agencias')
        .bearerToken(other)
        .json(invitationBody({ AdminMail: fixture.agency.adminMail }))
    ).assertStatus(409)
  })

  test('another app never sees an invitation or agency it did not bring', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const { token: other } = await createCaller()
    const body = invitationBody()
    await postInvitation(client, token, body)
    const missing = await client.get(`/v3/agencias/${uniqueEmail('nobody')}`).bearerToken(other)
    missing.assertStatus(404)
    const pending = await client.get(`/v3/agencias/${body.AdminMail}`).bearerToken(other)
    pending.assertStatus(404)
    assert.equal(pending.body().Detail, missing.body().Detail)
    ;(await client.options(`/v3/agencias/${body.AdminMail}`).bearerToken(other)).assertStatus(404)
  })
})

test.group('Agencies / AgenciaCreate validation (docs/spec.md §2.6, §8)', (group) => {
  // The accepted invitations are mailed too; the sink takes them so none is left retrying.
  mailingGroup(group)

  async function post(client: any, token: string, overrides: Record<string, unknown>) {
    return client.post('/v3/agencias').bearerToken(token).json(invitationBody(overrides))
  }

  const emailOf = (length: number) => {
    const domain = '@example.com'
    return 'a'.repeat(length - domain.length) + domain
  }

  test('every length limit, on both sides of the edge', async ({ client, assert }) => {
    const { token } = await createCaller()
    const accepted: Array<[string, unknown]> = [
      ['AdminMail', 'ab@c.com'],
      ['AdminMail', emailOf(50)],
      ['NombreComercial', 'Abc'],
      ['NombreComercial', 'N'.repeat(100)],
      ['Direccion', 'D'.repeat(200)],
      ['Direccion', ''],
      ['Telefono', '12345678'],
      ['Telefono', '1'.repeat(20)],
      ['AdminNombre', 'N'.repeat(50)],
      ['AdminApellido', 'A'.repeat(50)],
      ['AdminNombre', ''],
      ['Region', ''],
      ['Ciudad', null],
    ]
    for (const [field, value] of accepted) {
      const response = await post(client, token, { AdminMail: uniqueEmail('edge'), [field]: value })
      assert.equal(
        response.status(),
        202,
        `${field} = ${JSON.stringify(value)?.slice(0, 30)} should pass`
      )
    }
    const refused: Array<[string, unknown]> = [
      ['AdminMail', 'a@b.com'],
      ['AdminMail', emailOf(51)],
      ['AdminMail', 'not-an-email'],
      ['NombreComercial', 'Ab'],
      ['NombreComercial', 'N'.repeat(101)],
      ['Region', 'R'.repeat(201)],
      ['Ciudad', 'C'.repeat(201)],
      ['Direccion', 'D'.repeat(201)],
      ['Telefono', '1234567'],
      ['Telefono', '1'.repeat(21)],
      ['Telefono', 'llamar-al-1234'],
      ['AdminNombre', 'N'.repeat(51)],
      ['AdminApellido', 'A'.repeat(51)],
    ]
    for (const [field, value] of refused) {
      const response = await post(client, token, { AdminMail: uniqueEmail('edge'), [field]: value })
      assert.equal(
        response.status(),
        400,
        `${field} = ${JSON.stringify(value)?.slice(0, 30)} should fail`
      )
      assert.property(response.body().Errors, field)
    }
    const without = await client.post('/v3/agencias').bearerToken(token).json({})
    without.assertStatus(400)
    assert.includeMembers(Object.keys(without.body().Errors), ['AdminMail', 'NombreComercial'])
  })

  test('Region and Ciudad of 200 characters pass the length check and are then resolved', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const region = await post(client, token, {
      AdminMail: uniqueEmail('edge'),
      Region: 'R'.repeat(200),
    })
    region.assertStatus(400)
    assert.deepEqual(region.body().Errors, { Region: ['La región no existe.'] })
    const city = await post(client, token, {
      AdminMail: uniqueEmail('edge'),
      Ciudad: 'C'.repeat(200),
    })
    city.assertStatus(400)
    assert.deepEqual(city.body().Errors, { Ciudad: ['La ciudad no existe en la región indicada.'] })
  })

  test('Region and Ciudad through the catalogue: iso code, id, path, URL, name; unknown and ambiguous name the field', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const seed = await seedCatalog()
    const regionId = seed.regions['AR-X']
    for (const Region of [
      'AR-X',
      String(regionId),
      `/v3/regiones/${regionId}`,
      `${settings.publicUrl}/v3/regiones/${regionId}`,
      'cordoba',
    ]) {
      const body = invitationBody({ Region, Ciudad: 'Río Cuarto' })
      await postInvitation(client, token, body)
      const invitation = await Invitation.findByOrFail('admin_email', body.AdminMail)
      assert.equal(invitation.regionId, regionId, Region)
      assert.equal(invitation.cityId, seed.cities['AR-X/Río Cuarto'])
    }
    // A city alone implies its region.
    const alone = invitationBody({ Region: null, Ciudad: 'Rafaela' })
    await postInvitation(client, token, alone)
    assert.equal(
      (await Invitation.findByOrFail('admin_email', alone.AdminMail)).regionId,
      seed.regions['AR-S']
    )

    const unknown = await post(client, token, { AdminMail: uniqueEmail('x'), Region: 'Atlántida' })
    unknown.assertStatus(400)
    assert.deepEqual(Object.keys(unknown.body().Errors), ['Region'])
    const ambiguous = await post(client, token, {
      AdminMail: uniqueEmail('x'),
      Region: null,
      Ciudad: 'San Miguel',
    })
    ambiguous.assertStatus(400)
    assert.deepEqual(Object.keys(ambiguous.body().Errors), ['Ciudad'])
    assert.match(ambiguous.body().Errors.Ciudad[0], /ambigua/)
    const elsewhere = await post(client, token, {
      AdminMail: uniqueEmail('x'),
      Region: 'AR-S',
      Ciudad: 'La Plata',
    })
    elsewhere.assertStatus(400)
    assert.deepEqual(Object.keys(elsewhere.body().Errors), ['Ciudad'])
    ;(
      await post(client, token, {
        AdminMail: uniqueEmail('x'),
        Region: 'AR-B',
        Ciudad: 'San Miguel',
      })
    ).assertStatus(202)
  })
})
