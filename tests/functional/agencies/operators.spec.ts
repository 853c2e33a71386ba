import { test } from '@japa/runner'
import { settings } from '#core/settings'
import Operator from '#agencies/models/operator'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { createListing } from '#tests/helpers/listings'
import { inquiryBody } from '#tests/helpers/leads'

const REF = 'application/vnd.service.ref+json'

test.group('Agencies / operators: read', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('GET /v3/operadores/{adminmail}: members, administrator first, full and reference; ?operador filters', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, {
      collaborators: [
        {
          email: colab,
          firstName: 'Luis',
          lastName: 'Pérez',
          phones: ['011 4444-1111', '+5491144441111'],
        },
      ],
    })
    const m = fixture.agency.adminMail
    const list = await client.get(`/v3/operadores/${m}`).bearerToken(token)
    list.assertStatus(200)
    const [admin, member] = list.body()._entries
    assert.isTrue(admin.EsAdministradorAgencia)
    assert.equal(admin.Email, m)
    assert.deepEqual(member, {
      Nombre: 'Luis',
      Apellido: 'Pérez',
      Email: colab,
      Telefonos: ['011 4444-1111', '+5491144441111'],
      Direcciones: [],
      EsAdministradorAgencia: false,
      Publicaciones: {
        _links: { self: { href: `/v3/publicaciones/${m}?operador=${encodeURIComponent(colab)}` } },
      },
      Consultas: {
        _links: { self: { href: `/v3/consultas/${m}?operador=${encodeURIComponent(colab)}` } },
      },
      _links: {
        self: { href: `/v3/operadores/${m}?operador=${encodeURIComponent(colab)}` },
        edit: { href: `/v3/operadores/${m}?operador=${encodeURIComponent(colab)}`, method: 'PUT' },
        desasociar: {
          href: `/v3/operadores/${m}/desasociar?operador=${encodeURIComponent(colab)}{&operadorDestino}`,
          templated: true,
          method: 'PATCH',
        },
        agencia: { href: `/v3/agencias/${m}` },
      },
    })
    // Every plain link of the operator resolves.
    for (const href of [
      member._links.self.href,
      member.Publicaciones._links.self.href,
      member.Consultas._links.self.href,
    ]) {
      const followed = await client.get(href).bearerToken(token)
      assert.equal(followed.status(), 200, href)
    }

    const refs = await client.get(`/v3/operadores/${m}`).bearerToken(token).header('accept', REF)
    assert.deepEqual(refs.body()._entries[1], {
      href: `/v3/operadores/${m}?operador=${encodeURIComponent(colab)}`,
      title: `Luis Pérez (${colab})`,
    })

    const filtered = await client
      .get(`/v3/operadores/${m}`)
      .qs({ operador: colab.toUpperCase() })
      .bearerToken(token)
    filtered.assertStatus(200)
    assert.deepEqual(
      filtered.body()._entries.map((entry: any) => entry.Email),
      [colab]
    )
    const none = await client
      .get(`/v3/operadores/${m}`)
      .qs({ operador: uniqueEmail('nobody') })
      .bearerToken(token)
    assert.deepEqual(none.body()._entries, [])
  })

  test('GET /v3/operadores/{adminmail}: 400 for a bad operador, 404 when the agency does not exist for the app', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const fixture = await createAgency(app)
    const m = fixture.agency.adminMail
    const bad = await client
      .get(`/v3/operadores/${m}`)
      .qs({ operador: 'no-es-correo' })
      .bearerToken(token)
    bad.assertStatus(400)
    assert.property(bad.body().Errors, 'operador')
    const foreign = await client.get(`/v3/operadores/${m}`).bearerToken(otherToken)
    foreign.assertStatus(404)
    const missing = await client
      .get(`/v3/operadores/${uniqueEmail('nobody')}`)
      .bearerToken(otherToken)
    missing.assertStatus(404)
    assert.equal(foreign.body().Detail, missing.body().Detail)
  })

  test('GET /v3/operadores?operador: the person in any agency of the app; required; 404 otherwise', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, { collaborators: [colab] })
    const found = await client
      .get('/v3/operadores')
      .qs({ operador: colab.toUpperCase() })
      .bearerToken(token)
    found.assertStatus(200)
    assert.equal(found.body().Email, colab)
    assert.isFalse(found.body().EsAdministradorAgencia)
    assert.equal(found.body()._links.agencia.href, `/v3/agencias/${fixture.agency.adminMail}`)
    const ref = await client
      .get('/v3/operadores')
      .qs({ operador: colab })
      .bearerToken(token)
      .header('accept', REF)
    assert.match(ref.body().title, new RegExp(`\\(${colab.replace(/[.]/g, '\\.')}\\)$`))

    const required = await client.get('/v3/operadores').bearerToken(token)
    required.assertStatus(400)
    assert.property(required.body().Errors, 'operador')
    ;(await client.get('/v3/operadores').qs({ operador: 'x' }).bearerToken(token)).assertStatus(400)
    ;(
      await client.get('/v3/operadores').qs({ operador: colab }).bearerToken(otherToken)
    ).assertStatus(404)
    ;(
      await client
        .get('/v3/operadores')
        .qs({ operador: uniqueEmail('nobody') })
        .bearerToken(token)
    ).assertStatus(404)
  })
})

test.group('Agencies / operators: add a collaborator', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('POST /v3/operadores/{adminmail}: 201 + Location that resolves; the phones are filed', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const fixture = await createAgency(app)
    const m = fixture.agency.adminMail
    const email = uniqueEmail('new')
    const response = await client
      .post(`/v3/operadores/${m}`)
      .bearerToken(token)
      .json({
        Email: email.toUpperCase(),
        Nombre: 'Sofía',
        Apellido: 'Ruiz',
        Telefonos: ['+5493415550000', '0341 455-0000'],
      })
    response.assertStatus(201)
    const path = `/v3/operadores/${m}?operador=${encodeURIComponent(email)}`
    assert.equal(response.header('location'), settings.publicUrl + path)
    assert.containsSubset(response.body(), {
      Email: email,
      Nombre: 'Sofía',
      EsAdministradorAgencia: false,
    })
    const followed = await client.get(path).bearerToken(token)
    followed.assertStatus(200)
    assert.equal(followed.body()._entries[0].Email, email)
    const operator = await Operator.findByOrFail('email', email)
    assert.equal(operator.whatsapp, '+5493415550000')
    assert.equal(operator.workPhone, '0341 455-0000')
  })

  test('POST: 409 for a member of this or another agency; 403 for an agency not of the app; validation limits', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, { collaborators: [colab] })
    const elsewhere = await createAgency(app)
    const m = fixture.agency.adminMail
    for (const email of [colab, elsewhere.agency.adminMail]) {
      const response = await client
        .post(`/v3/operadores/${m}`)
        .bearerToken(token)
        .json({ Email: email })
      response.assertStatus(409)
      assert.property(response.body().Errors, 'Email')
    }
    ;(
      await client
        .post(`/v3/operadores/${m}`)
        .bearerToken(otherToken)
        .json({ Email: uniqueEmail('x') })
    ).assertStatus(403)

    const cases: Array<[string, unknown, number]> = [
      ['Nombre', 'N'.repeat(50), 201],
      ['Nombre', 'N'.repeat(51), 400],
      ['Apellido', 'A'.repeat(50), 201],
      ['Apellido', 'A'.repeat(51), 400],
      ['Telefonos', ['12345678'], 201],
      ['Telefonos', ['1234567'], 400],
      ['Telefonos', ['1'.repeat(20)], 201],
      ['Telefonos', ['1'.repeat(21)], 400],
    ]
    for (const [field, value, status] of cases) {
      const response = await client
        .post(`/v3/operadores/${m}`)
        .bearerToken(token)
        .json({ Email: uniqueEmail('v'), [field]: value })
      assert.equal(response.status(), status, `${field} ${JSON.stringify(value)}`)
      if (status === 400)
        assert.isTrue(Object.keys(response.body().Errors).some((key) => key.startsWith(field)))
    }
    const noEmail = await client
      .post(`/v3/operadores/${m}`)
      .bearerToken(token)
      .json({ Nombre: 'Sin correo' })
    noEmail.assertStatus(400)
    assert.property(noEmail.body().Errors, 'Email')
  })
})

test.group('Agencies / operators: PUT (OperadorEdit)', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('default target is the administrator; fields change, absent ones stay; Region/Ciudad become names', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const fixture = await createAgency(app)
    const m = fixture.agency.adminMail
    const response = await client.put(`/v3/operadores/${m}`).bearerToken(token).json({
      Nombre: 'Carla',
      TelefonoLaboral: '0351 422-0000',
      WhatsApp: '+5493514220000',
      Region: 'AR-X',
      Ciudad: 'Villa Carlos Paz',
      Direccion: 'San Martín 100',
    })
    response.assertStatus(200)
    assert.containsSubset(response.body(), {
      Nombre: 'Carla',
      Apellido: 'Administradora',
      Email: m,
      Telefonos: ['0351 422-0000', '+5493514220000'],
      Direcciones: [{ Region: 'Córdoba', Ciudad: 'Villa Carlos Paz', Direccion: 'San Martín 100' }],
      EsAdministradorAgencia: true,
    })
    // null clears.
    const cleared = await client
      .put(`/v3/operadores/${m}`)
      .bearerToken(token)
      .json({ WhatsApp: null })
    assert.deepEqual(cleared.body().Telefonos, ['0351 422-0000'])
  })

  test('a collaborator by ?operador; every OperadorEdit limit on both sides', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(app, { collaborators: [colab] })
    const url = `/v3/operadores/${fixture.agency.adminMail}?operador=${encodeURIComponent(colab)}`
    const cases: Array<[string, unknown, number]> = [
      ['Nombre', 'N'.repeat(50), 200],
      ['Nombre', 'N'.repeat(51), 400],
      ['Nombre', '', 200],
      ['Apellido', 'A'.repeat(50), 200],
      ['Apellido', 'A'.repeat(51), 400],
      ['TelefonoLaboral', '12345678', 200],
      ['TelefonoLaboral', '1234567', 400],
      ['TelefonoLaboral', '1'.repeat(20), 200],
      ['TelefonoLaboral', '1'.repeat(21), 400],
      ['WhatsApp', '+5491112', 200],
      ['WhatsApp', '+549111', 400],
      ['WhatsApp', '+' + '5'.repeat(19), 200],
      ['WhatsApp', '+' + '5'.repeat(20), 400],
      ['WhatsApp', '011 4555-0000', 400],
      ['Direccion', 'D'.repeat(200), 200],
      ['Direccion', 'D'.repeat(201), 400],
      ['Region', 'R'.repeat(201), 400],
      ['Ciudad', 'C'.repeat(201), 400],
      ['Region', 'Provincia Inexistente', 400],
      ['Ciudad', 'San Miguel', 400],
    ]
    for (const [field, value, status] of cases) {
      const response = await client
        .put(url)
        .bearerToken(token)
        .json({ [field]: value })
      assert.equal(response.status(), status, `${field} = ${JSON.stringify(value)}`)
      if (status === 400)
        assert.deepEqual(
          Object.keys(response.body().Errors),
          [field],
          `${field} = ${JSON.stringify(value)}`
        )
      else assert.equal(response.body().Email, colab)
    }
    const named = await client
      .put(url)
      .bearerToken(token)
      .json({ Region: 'AR-B', Ciudad: 'San Miguel' })
    named.assertStatus(200)
    assert.deepEqual(named.body().Direcciones[0].Region, 'Buenos Aires')
  })

  test('403 for an agency not of the app and for an administrator not created through the API; 404 for a non-member', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const fixture = await createAgency(app)
    const m = fixture.agency.adminMail
    ;(
      await client.put(`/v3/operadores/${m}`).bearerToken(otherToken).json({ Nombre: 'X' })
    ).assertStatus(403)
    ;(
      await client
        .put(`/v3/operadores/${uniqueEmail('nobody')}`)
        .bearerToken(otherToken)
        .json({ Nombre: 'X' })
    ).assertStatus(403)

    const stranger = await createAgency(app)
    const notMember = await client
      .put(`/v3/operadores/${m}`)
      .qs({ operador: stranger.agency.adminMail })
      .bearerToken(token)
      .json({ Nombre: 'X' })
    notMember.assertStatus(404)
    ;(
      await client
        .put(`/v3/operadores/${m}`)
        .qs({ operador: uniqueEmail('ghost') })
        .bearerToken(token)
        .json({ Nombre: 'X' })
    ).assertStatus(404)

    await Operator.query().where('id', fixture.admin.id).update({ createdViaApi: false })
    const portalAdmin = await client
      .put(`/v3/operadores/${m}`)
      .bearerToken(token)
      .json({ Nombre: 'X' })
    portalAdmin.assertStatus(403)
    assert.equal((await Operator.findOrFail(fixture.admin.id)).firstName, 'Ana')
  })
})

test.group('Agencies / operators: desasociar', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('listings and inquiries pass to the destination atomically; the person stays a user and joins another agency', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller('Dealer', ['consultas:crear'])
    const leaving = uniqueEmail('leaving')
    const staying = uniqueEmail('staying')
    const fixture = await createAgency(app, {
      collaborators: [
        { email: leaving, phones: ['011 4000-0001'] },
        { email: staying, phones: ['011 4000-0002'] },
      ],
    })
    const m = fixture.agency.adminMail
    const listing = await createListing(app, fixture, { OperadorResponsable: leaving })
    assert.equal(listing.operatorId, fixture.collaborators[0].id)
    ;(
      await client
        .post(`/v3/consultas/${m}`)
        .bearerToken(token)
        .json(inquiryBody(listing.externalId))
    ).assertStatus(201)
    const before = await client
      .get(`/v3/consultas/${m}`)
      .qs({ operador: leaving })
      .bearerToken(token)
    assert.equal(before.body().Total, 1)

    const detached = await client
      .patch(`/v3/operadores/${m}/desasociar`)
      .qs({ operador: leaving.toUpperCase(), operadorDestino: staying })
      .bearerToken(token)
    detached.assertStatus(204)

    const moved = await client
      .get(`/v3/publicaciones/${m}/${listing.externalId}`)
      .bearerToken(token)
    assert.equal(moved.body().OperadorResponsable, staying)
    assert.equal(moved.body().Telefono, '011 4000-0002')
    const inquiries = await client
      .get(`/v3/consultas/${m}`)
      .qs({ operador: staying })
      .bearerToken(token)
    assert.equal(inquiries.body().Total, 1)
    assert.equal(inquiries.body()._entries[0].OperadorResponsable, staying)

    const members = await client.get(`/v3/operadores/${m}`).bearerToken(token)
    assert.notInclude(
      members.body()._entries.map((entry: any) => entry.Email),
      leaving
    )
    ;(await client.get('/v3/operadores').qs({ operador: leaving }).bearerToken(token)).assertStatus(
      404
    )
    assert.exists(await Operator.findBy('email', leaving), 'the person stays a user')

    // Still known to the service: cannot be invited as a new agency's admin, but can join another agency.
    ;(
      await client
        .post('/v3/agencias')
        .bearerToken(token)
        .json({ AdminMail: leaving, NombreComercial: 'Nueva' })
    ).assertStatus(409)
    const other = await createAgency(app)
    const joined = await client
      .post(`/v3/operadores/${other.agency.adminMail}`)
      .bearerToken(token)
      .json({ Email: leaving })
    joined.assertStatus(201)
    assert.equal(joined.body().Email, leaving)
  })

  test('both parameters required (400); administrator, non-members and self are 400; 403 for an agency not of the app', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const a = uniqueEmail('a')
    const b = uniqueEmail('b')
    const fixture = await createAgency(app, { collaborators: [a, b] })
    const m = fixture.agency.adminMail
    const url = `/v3/operadores/${m}/desasociar`
    const patch = (qs: Record<string, string>, bearer = token) =>
      client.patch(url).qs(qs).bearerToken(bearer)

    const none = await patch({})
    none.assertStatus(400)
    assert.includeMembers(Object.keys(none.body().Errors), ['operador', 'operadorDestino'])
    assert.deepEqual(Object.keys((await patch({ operador: a })).body().Errors), ['operadorDestino'])
    assert.deepEqual(Object.keys((await patch({ operadorDestino: b })).body().Errors), ['operador'])
    assert.deepEqual(
      Object.keys((await patch({ operador: 'x', operadorDestino: b })).body().Errors),
      ['operador']
    )

    const admin = await patch({ operador: m, operadorDestino: a })
    admin.assertStatus(400)
    assert.match(admin.body().Errors.operador[0], /administrador/)
    assert.deepEqual(
      Object.keys(
        (await patch({ operador: uniqueEmail('ghost'), operadorDestino: a })).body().Errors
      ),
      ['operador']
    )
    assert.deepEqual(
      Object.keys(
        (await patch({ operador: a, operadorDestino: uniqueEmail('ghost') })).body().Errors
      ),
      ['operadorDestino']
    )
    assert.deepEqual(
      Object.keys((await patch({ operador: a, operadorDestino: a })).body().Errors),
      ['operadorDestino']
    )

    ;(await patch({ operador: a, operadorDestino: b }, otherToken)).assertStatus(403)
    ;(
      await client
        .patch(`/v3/operadores/${uniqueEmail('nobody')}/desasociar`)
        .qs({ operador: a, operadorDestino: b })
        .bearerToken(otherToken)
    ).assertStatus(403)

    // Nothing changed on refusals; the administrator may receive the work.
    ;(await patch({ operador: a, operadorDestino: m })).assertStatus(204)
    const members = await client.get(`/v3/operadores/${m}`).bearerToken(token)
    assert.deepEqual(
      members.body()._entries.map((entry: any) => entry.Email),
      [m, b]
    )
  })
})
