import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { expand } from '#core/http/links'
import AgencyDirectory from '#agencies/services/agency_directory'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { createListing } from '#tests/helpers/listings'

async function ace(name: string, args: string[]) {
  const kernel = await app.container.make('ace')
  return kernel.exec(name, args)
}

test.group('Agencies / read and edit', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test("GET /v3/agencias lists the app's agencies only, in both representations", async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller()
    const { app: other } = await createCaller()
    const mine = await createAgency(caller, { tradeName: 'Beta Autos' })
    const second = await createAgency(caller, { tradeName: 'Alfa Autos' })
    await createAgency(other)

    const full = await client.get('/v3/agencias').bearerToken(token)
    full.assertStatus(200)
    assert.deepEqual(
      full.body()._entries.map((entry: any) => entry.AdminMail),
      [second.agency.adminMail, mine.agency.adminMail]
    )
    assert.equal(full.body()._links.self.href, '/v3/agencias')

    const refs = await client
      .get('/v3/agencias')
      .bearerToken(token)
      .header('accept', 'application/vnd.service.ref+json')
    refs.assertStatus(200)
    assert.deepEqual(refs.body()._entries[0], {
      AdminMail: second.agency.adminMail,
      href: `/v3/agencias/${second.agency.adminMail}`,
      title: 'Alfa Autos',
    })
  })

  test('GET /v3/agencias/{adminmail}: every link group of docs/spec.md §2.5, and each plain href resolves', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller()
    const fixture = await createAgency(caller, { tradeName: 'Gamma Autos' })
    await createListing(caller, fixture)
    const m = fixture.agency.adminMail
    const response = await client.get(`/v3/agencias/${m.toUpperCase()}`).bearerToken(token)
    response.assertStatus(200)
    const agency = response.body()
    assert.equal(agency.AdminMail, m)
    assert.equal(agency.NombreComercial, 'Gamma Autos')
    const expected: Record<string, string> = {
      Productos: 'productos',
      Operadores: 'operadores',
      Sucursales: 'sucursales',
      Notificaciones: 'notificaciones',
      Publicaciones: 'publicaciones',
      Consultas: 'consultas',
      Visitas: 'visitas',
    }
    for (const [section, segment] of Object.entries(expected)) {
      assert.deepEqual(Object.keys(agency[section]), ['_links'], section)
      assert.equal(agency[section]._links.self.href, `/v3/${segment}/${m}`, section)
    }
    assert.deepEqual(agency._links.edit, { href: `/v3/agencias/${m}`, method: 'PUT' })

    const hrefs: string[] = []
    for (const linked of [agency, ...Object.keys(expected).map((name) => agency[name])]) {
      for (const link of Object.values(linked._links) as any[]) {
        if (!link.method && !link.templated) hrefs.push(link.href)
        if (link.templated && !link.method) hrefs.push(expand(link.href, {}))
      }
    }
    for (const href of hrefs) {
      const followed = await client.get(href).bearerToken(token)
      assert.isTrue(
        followed.status() >= 200 && followed.status() < 300,
        `${href} → ${followed.status()}`
      )
    }

    const ref = await client
      .get(`/v3/agencias/${m}`)
      .bearerToken(token)
      .header('accept', 'application/vnd.service.ref+json')
    assert.deepEqual(ref.body(), { AdminMail: m, href: `/v3/agencias/${m}`, title: 'Gamma Autos' })
  })

  test('PUT /v3/agencias/{adminmail}: NombreComercial 3..100 on both sides; 403 for an agency not of the app', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const fixture = await createAgency(caller)
    const m = fixture.agency.adminMail
    for (const name of ['Abc', 'N'.repeat(100)]) {
      const response = await client
        .put(`/v3/agencias/${m}`)
        .bearerToken(token)
        .json({ NombreComercial: name })
      response.assertStatus(200)
      assert.equal(response.body().NombreComercial, name)
    }
    for (const name of ['Ab', 'N'.repeat(101), '']) {
      const response = await client
        .put(`/v3/agencias/${m}`)
        .bearerToken(token)
        .json({ NombreComercial: name })
      response.assertStatus(400)
      assert.property(response.body().Errors, 'NombreComercial')
    }
    ;(await client.put(`/v3/agencias/${m}`).bearerToken(token).json({})).assertStatus(400)
    const ref = await client
      .put(`/v3/agencias/${m}`)
      .bearerToken(token)
      .header('accept', 'application/vnd.service.ref+json')
      .json({ NombreComercial: 'Delta Autos' })
    assert.deepEqual(ref.body(), { AdminMail: m, href: `/v3/agencias/${m}`, title: 'Delta Autos' })

    const foreign = await client
      .put(`/v3/agencias/${m}`)
      .bearerToken(otherToken)
      .json({ NombreComercial: 'Robada' })
    foreign.assertStatus(403)
    const missing = await client
      .put(`/v3/agencias/${uniqueEmail('nobody')}`)
      .bearerToken(otherToken)
      .json({ NombreComercial: 'Nadie' })
    missing.assertStatus(403)
    assert.equal(foreign.body().Detail, missing.body().Detail)
    assert.equal((await new AgencyDirectory().forApp(caller.id, m))?.tradeName, 'Delta Autos')
  })
})

test.group('Agencies / {adminmail} must be an e-mail', () => {
  test('a malformed {adminmail} is 400 with Errors.adminmail on every endpoint of the module', async ({
    client,
    assert,
  }) => {
    const { token } = await createCaller()
    const requests = [
      client.get('/v3/agencias/no-es-correo'),
      client.options('/v3/agencias/no-es-correo'),
      client.put('/v3/agencias/no-es-correo').json({ NombreComercial: 'Válido' }),
      client.get('/v3/productos/no-es-correo'),
      client.get('/v3/operadores/no-es-correo'),
      client.post('/v3/operadores/no-es-correo').json({ Email: uniqueEmail('x') }),
      client.put('/v3/operadores/no-es-correo').json({ Nombre: 'X' }),
      client
        .patch('/v3/operadores/no-es-correo/desasociar')
        .qs({ operador: uniqueEmail('a'), operadorDestino: uniqueEmail('b') }),
      client.get('/v3/sucursales/no-es-correo'),
      client.post('/v3/sucursales/no-es-correo').json({ Descripcion: 'x' }),
      client.get('/v3/sucursales/no-es-correo/1'),
      client.put('/v3/sucursales/no-es-correo/1').json({ Descripcion: 'x' }),
    ]
    for (const [index, request] of requests.entries()) {
      const response = await request.bearerToken(token)
      assert.equal(response.status(), 400, `request ${index}`)
      assert.deepEqual(Object.keys(response.body().Errors), ['adminmail'], `request ${index}`)
    }
  })
})

test.group('Agencies / products (plan) and support commands', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('GET /v3/productos/{adminmail}: capacity and quotas of the plan; 404 for another app', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller()
    const { token: otherToken } = await createCaller()
    const fixture = await createAgency(caller, {
      plan: { capacity: 7, alta: 1, media: 2, baja: 4 },
    })
    const m = fixture.agency.adminMail
    await createListing(caller, fixture, { Exposicion: 'Alta' })
    await createListing(caller, fixture, { Exposicion: 'Baja' })
    await createListing(caller, fixture, { Exposicion: 'Baja', Activa: false })
    const response = await client.get(`/v3/productos/${m}`).bearerToken(token)
    response.assertStatus(200)
    assert.containsSubset(response.body(), {
      Capacidad: 7,
      Usadas: 2,
      Disponibles: 5,
      Exposiciones: {
        Alta: { Cupo: 1, Usadas: 1, Disponibles: 0 },
        Media: { Cupo: 2, Usadas: 0, Disponibles: 2 },
        Baja: { Cupo: 4, Usadas: 1, Disponibles: 3 },
      },
      Suspendida: false,
      _links: { self: { href: `/v3/productos/${m}` }, agencia: { href: `/v3/agencias/${m}` } },
    })
    ;(await client.get(`/v3/productos/${m}`).bearerToken(otherToken)).assertStatus(404)
    ;(await client.get(`/v3/productos/${uniqueEmail('nobody')}`).bearerToken(token)).assertStatus(
      404
    )
  })

  test('a registered agency gets the default plan', async ({ assert }) => {
    const { app: caller } = await createCaller()
    const fixture = await createAgency(caller)
    assert.deepEqual(await new AgencyDirectory().plan(fixture.agency.id), {
      capacity: 50,
      quotas: { high: 5, medium: 15, low: 50 },
    })
  })

  test('ace agency:plan sets the plan; bad numbers and unknown agencies fail', async ({
    assert,
  }) => {
    const { app: caller } = await createCaller()
    const fixture = await createAgency(caller)
    const m = fixture.agency.adminMail
    const done = await ace('agency:plan', [
      m.toUpperCase(),
      '--capacity',
      '12',
      '--alta',
      '2',
      '--media',
      '3',
      '--baja',
      '7',
    ])
    assert.equal(done.exitCode, 0)
    assert.deepEqual(await new AgencyDirectory().plan(fixture.agency.id), {
      capacity: 12,
      quotas: { high: 2, medium: 3, low: 7 },
    })
    const negative = await ace('agency:plan', [
      m,
      '--capacity',
      '-1',
      '--alta',
      '0',
      '--media',
      '0',
      '--baja',
      '0',
    ])
    assert.equal(negative.exitCode, 1)
    const unknown = await ace('agency:plan', [
      uniqueEmail('nobody'),
      '--capacity',
      '1',
      '--alta',
      '0',
      '--media',
      '0',
      '--baja',
      '0',
    ])
    assert.equal(unknown.exitCode, 1)
  })

  test('ace agency:grant lets another app see the agency (customer-support path), with --other-leads', async ({
    client,
    assert,
  }) => {
    const { app: caller } = await createCaller()
    const { app: other, token: otherToken } = await createCaller()
    const fixture = await createAgency(caller)
    const m = fixture.agency.adminMail
    ;(await client.get(`/v3/agencias/${m}`).bearerToken(otherToken)).assertStatus(404)

    const granted = await ace('agency:grant', [m, '--app', String(other.id), '--other-leads'])
    assert.equal(granted.exitCode, 0)
    ;(await client.get(`/v3/agencias/${m}`).bearerToken(otherToken)).assertStatus(200)
    assert.deepEqual(await new AgencyDirectory().appsReceivingOtherLeads(fixture.agency.id), [
      other.id,
    ])

    // Granting again without the flag turns it off (idempotent).
    assert.equal((await ace('agency:grant', [m, '--app', String(other.id)])).exitCode, 0)
    assert.deepEqual(await new AgencyDirectory().appsReceivingOtherLeads(fixture.agency.id), [])

    assert.equal(
      (await ace('agency:grant', [uniqueEmail('nobody'), '--app', String(other.id)])).exitCode,
      1
    )
    assert.equal((await ace('agency:grant', [m, '--app', '999999'])).exitCode, 1)
  })

  test('ace agency:suspend suspends and reinstates an agency or a person (docs/design.md §7 flags)', async ({
    client,
    assert,
  }) => {
    const { app: caller, token } = await createCaller()
    const colab = uniqueEmail('colab')
    const fixture = await createAgency(caller, { collaborators: [colab] })
    const m = fixture.agency.adminMail
    const directory = await app.container.make(AgencyDirectory)

    assert.equal((await ace('agency:suspend', [m.toUpperCase()])).exitCode, 0)
    assert.isTrue((await directory.forApp(caller.id, m))?.suspended)
    assert.isTrue((await client.get(`/v3/productos/${m}`).bearerToken(token)).body().Suspendida)
    assert.equal((await ace('agency:suspend', [m, '--off'])).exitCode, 0)
    assert.isFalse((await directory.forApp(caller.id, m))?.suspended)

    assert.equal((await ace('agency:suspend', [colab, '--operator'])).exitCode, 0)
    assert.isTrue((await directory.member(fixture.agency.id, colab))?.suspended)
    // A suspended person cannot receive a detached colleague's work.
    const other = await client
      .post(`/v3/operadores/${m}`)
      .bearerToken(token)
      .json({ Email: uniqueEmail('other') })
    const refused = await client
      .patch(`/v3/operadores/${m}/desasociar`)
      .qs({ operador: other.body().Email, operadorDestino: colab })
      .bearerToken(token)
    refused.assertStatus(400)
    assert.match(refused.body().Errors.operadorDestino[0], /suspendido/)
    assert.equal((await ace('agency:suspend', [colab, '--operator', '--off'])).exitCode, 0)
    assert.isFalse((await directory.member(fixture.agency.id, colab))?.suspended)

    assert.equal((await ace('agency:suspend', [uniqueEmail('nobody')])).exitCode, 1)
    assert.equal((await ace('agency:suspend', [uniqueEmail('nobody'), '--operator'])).exitCode, 1)
  })
})
