import { test } from '@japa/runner'
import { settings } from '#core/settings'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'

const REF = 'application/vnd.service.ref+json'

test.group('Agencies / branches (sucursales)', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('GET lists every field of docs/spec.md §2.10, full and reference; the edit link resolves with PUT', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const fixture = await createAgency(app)
    const m = fixture.agency.adminMail
    const created = await client
      .post(`/v3/sucursales/${m}`)
      .bearerToken(token)
      .json({
        Descripcion: 'Taller Norte',
        Email: 'Taller@Example.com',
        Telefono: '0221 455-1111',
        Region: 'AR-B',
        Ciudad: 'Tigre',
        Direccion: 'Av. Cazón 1500',
        Comercial: false,
        TallerMecanico: true,
        Autopartes: true,
        Laborable: { Desde: '08:30', Hasta: '18:00' },
        PreFestivo: { Desde: '09:00:00', Hasta: '13:00:00' },
        Festivo: null,
        ResponsableLeadsPostVenta: 'postventa@example.com',
      })
    created.assertStatus(201)
    const list = await client.get(`/v3/sucursales/${m.toUpperCase()}`).bearerToken(token)
    list.assertStatus(200)
    const [main, workshop] = list.body()._entries
    assert.equal(main.Descripcion, 'Casa central')
    const href = workshop._links.self.href
    assert.equal(created.header('location'), settings.publicUrl + href)
    assert.deepEqual(workshop, {
      Descripcion: 'Taller Norte',
      Email: 'taller@example.com',
      Telefono: '0221 455-1111',
      Region: 'Buenos Aires',
      Ciudad: 'Tigre',
      Direccion: 'Av. Cazón 1500',
      Comercial: false,
      TallerMecanico: true,
      Autopartes: true,
      Laborable: { Desde: '08:30:00', Hasta: '18:00:00' },
      PreFestivo: { Desde: '09:00:00', Hasta: '13:00:00' },
      Festivo: null,
      ResponsableLeadsPostVenta: 'postventa@example.com',
      _links: {
        self: { href },
        edit: { href, method: 'PUT' },
        agencia: { href: `/v3/agencias/${m}` },
      },
    })
    const refs = await client.get(`/v3/sucursales/${m}`).bearerToken(token).header('accept', REF)
    assert.deepEqual(refs.body()._entries[1], { href, title: 'Taller Norte' })

    ;(await client.get(href).bearerToken(token)).assertStatus(200)
    const edited = await client
      .put(href)
      .bearerToken(token)
      .json({ Festivo: { Desde: '10:00', Hasta: '12:30' }, Comercial: true })
    edited.assertStatus(200)
    assert.deepEqual(edited.body().Festivo, { Desde: '10:00:00', Hasta: '12:30:00' })
    assert.isTrue(edited.body().Comercial)
    assert.equal(edited.body().Descripcion, 'Taller Norte', 'absent fields stay')
    const cleared = await client
      .put(href)
      .bearerToken(token)
      .json({ Laborable: null, Region: null, Ciudad: null })
    assert.isNull(cleared.body().Laborable)
    assert.equal(cleared.body().Region, '')
  })

  test('validation: hours, lengths and references, on both sides', async ({ client, assert }) => {
    const { app, token } = await createCaller()
    const fixture = await createAgency(app)
    const url = `/v3/sucursales/${fixture.agency.adminMail}`
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{ Descripcion: 'D'.repeat(100) }, 201],
      [{ Descripcion: 'D'.repeat(101) }, 400, 'Descripcion'],
      [{ Descripcion: '' }, 400, 'Descripcion'],
      [{}, 400, 'Descripcion'],
      [{ Descripcion: 'x', Laborable: { Desde: '09:00', Hasta: '09:01' } }, 201],
      [{ Descripcion: 'x', Laborable: { Desde: '09:00', Hasta: '09:00' } }, 400, 'Laborable.Hasta'],
      [{ Descripcion: 'x', Laborable: { Desde: '24:00', Hasta: '23:00' } }, 400, 'Laborable.Desde'],
      [{ Descripcion: 'x', Festivo: { Desde: '9', Hasta: '10:00' } }, 400, 'Festivo.Desde'],
      [{ Descripcion: 'x', Telefono: '12345678' }, 201],
      [{ Descripcion: 'x', Telefono: '1234567' }, 400, 'Telefono'],
      [{ Descripcion: 'x', Telefono: '1'.repeat(21) }, 400, 'Telefono'],
      [{ Descripcion: 'x', Direccion: 'D'.repeat(200) }, 201],
      [{ Descripcion: 'x', Direccion: 'D'.repeat(201) }, 400, 'Direccion'],
      [{ Descripcion: 'x', Region: 'Narnia' }, 400, 'Region'],
      [{ Descripcion: 'x', Ciudad: 'San Miguel' }, 400, 'Ciudad'],
      [{ Descripcion: 'x', Email: 'no-es-correo' }, 400, 'Email'],
      [{ Descripcion: 'x', ResponsableLeadsPostVenta: 'no' }, 400, 'ResponsableLeadsPostVenta'],
      [{ Descripcion: 'x', Comercial: 'si' }, 400, 'Comercial'],
    ]
    for (const [body, status, key] of cases) {
      const response = await client.post(url).bearerToken(token).json(body)
      assert.equal(response.status(), status, JSON.stringify(body).slice(0, 60))
      if (key)
        assert.deepEqual(
          Object.keys(response.body().Errors),
          [key],
          JSON.stringify(body).slice(0, 60)
        )
    }
  })

  test('404 on GET for an agency not of the app or a missing branch; 403 on writes for an agency not of the app', async ({
    client,
    assert,
  }) => {
    const { app, token } = await createCaller()
    const { app: otherApp, token: otherToken } = await createCaller()
    const fixture = await createAgency(app)
    const foreignFixture = await createAgency(otherApp)
    const m = fixture.agency.adminMail
    const list = await client.get(`/v3/sucursales/${m}`).bearerToken(token)
    const href = list.body()._entries[0]._links.self.href
    const foreign = await client.get(`/v3/sucursales/${m}`).bearerToken(otherToken)
    foreign.assertStatus(404)
    const missing = await client
      .get(`/v3/sucursales/${uniqueEmail('nobody')}`)
      .bearerToken(otherToken)
    missing.assertStatus(404)
    assert.equal(foreign.body().Detail, missing.body().Detail)
    ;(await client.get(href).bearerToken(otherToken)).assertStatus(404)
    ;(await client.get(`/v3/sucursales/${m}/999999999`).bearerToken(token)).assertStatus(404)
    ;(await client.get(`/v3/sucursales/${m}/abc`).bearerToken(token)).assertStatus(400)

    ;(
      await client.post(`/v3/sucursales/${m}`).bearerToken(otherToken).json({ Descripcion: 'x' })
    ).assertStatus(403)
    ;(await client.put(href).bearerToken(otherToken).json({ Descripcion: 'x' })).assertStatus(403)
    // A branch of another agency through this agency's path: not found.
    const theirs = await client
      .get(`/v3/sucursales/${foreignFixture.agency.adminMail}`)
      .bearerToken(otherToken)
    const theirId = theirs.body()._entries[0]._links.self.href.split('/').pop()
    ;(
      await client
        .put(`/v3/sucursales/${m}/${theirId}`)
        .bearerToken(token)
        .json({ Descripcion: 'x' })
    ).assertStatus(404)
  })
})
