import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createCaller } from '#tests/helpers/apps'
import { createAgency, grantAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { dealerWorld, deliveriesOf, inquiryBody, sidOf, postInquiry } from '#tests/helpers/leads'

/** A version of the seeded catalogue (for catalogue inquiries). */
async function catalogVersion(): Promise<number> {
  const { versions } = (await seedCatalog()) as any
  const versionId = Object.values(versions ?? {})[0] as number | undefined
  return versionId ?? (await db.from('versions').select('id').firstOrFail()).id
}

test.group('POST /v3/consultas/{adminmail}: intake', () => {
  test('201 + Location; the inquiry snapshots the vehicle and the responsible operator', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld({
      listing: { RefStock: 'A-1', Precio: { Moneda: 'USD', Importe: 21000.5 } },
    })
    const body = inquiryBody(world.listing.externalId, {
      Interes: 'financiacion',
      InfoOperacion: {
        EntregaVehiculo: { Marca: 'Fiat', Modelo: 'Palio', VersionYear: 2012 },
        FinanciacionDeseada: { Adelanto: { Moneda: 'ars', Importe: 1000000 }, Cuota: null },
        QuiereCotizacionSeguro: true,
      },
    })
    const response = await postInquiry(client, world, body)
    const location = response.header('location')!
    const sid = sidOf(location)
    assert.equal(
      location,
      `http://127.0.0.1:${process.env.PORT}/v3/consultas/${world.adminMail}/${sid}`
    )
    const consulta = response.body()
    assert.match(consulta.Momento, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?[+-]\d\d:\d\d$/)
    assert.equal(consulta.OrigenLead, 'App')
    assert.equal(consulta.TipoAnuncio, 'Publicacion')
    assert.deepInclude(consulta.Auto, {
      ExternalId: world.listing.externalId,
      RefStock: 'A-1',
      Marca: world.listing.brand,
      Modelo: world.listing.model,
      Version: world.listing.version,
      VersionYear: world.listing.versionYear,
      Kilometraje: 0,
      Estado: 'Nuevo',
      Precio: { Moneda: 'USD', Importe: 21000.5 },
    })
    assert.equal(consulta.Interesado.Interes, 'Financiacion')
    assert.deepEqual(consulta.Interesado.InfoOperacion, {
      EntregaVehiculo: { Marca: 'Fiat', Modelo: 'Palio', VersionYear: 2012 },
      FinanciacionDeseada: { Adelanto: { Moneda: 'ARS', Importe: 1000000 }, Cuota: null },
      QuiereCotizacionSeguro: true,
    })
    assert.equal(consulta.OperadorResponsable, world.fixture.admin.email)
    const self = `/v3/consultas/${world.adminMail}/${sid}`
    assert.deepEqual(consulta._links, {
      self: { href: self },
      entregas: { href: `${self}/entregas` },
      resendwebhook: { href: `${self}/resendwebhook`, method: 'POST' },
    })
    // Every link resolves.
    ;(await client.get(self).bearerToken(world.token)).assertStatus(200)
    ;(await client.get(`${self}/entregas`).bearerToken(world.token)).assertStatus(200)

    // A later change of the listing does not change the inquiry.
    const again = await client.get(self).bearerToken(world.token)
    assert.deepEqual(again.body(), consulta)
    // The list reads fewer columns than the single GET; its entry is the same Consulta.
    const list = await client.get(`/v3/consultas/${world.adminMail}`).bearerToken(world.token)
    const entry = list.body()._entries.find((item: any) => item._links.self.href === self)
    assert.deepEqual(entry, consulta)
  })

  test('a catalogue inquiry (VersionId) has an empty ExternalId and the agency administrator', async ({
    client,
    assert,
  }) => {
    const anyVersion = await catalogVersion()
    const { app: caller, token } = await createCaller('Catalogue app', ['consultas:crear'])
    const fixture = await createAgency(caller, { receivesOtherLeads: true })
    const response = await client
      .post(`/v3/consultas/${fixture.agency.adminMail}`)
      .bearerToken(token)
      .json({
        VersionId: anyVersion,
        OrigenLead: 'portal',
        Interesado: { Telefono: '011 4444-5555' },
      })
    response.assertStatus(201)
    assert.equal(response.body().TipoAnuncio, 'Catalogo')
    assert.equal(response.body().OrigenLead, 'Portal')
    assert.equal(response.body().Auto.ExternalId, '')
    assert.equal(response.body().Auto.Estado, 'Nuevo')
    assert.equal(response.body().OperadorResponsable, fixture.admin.email)
    assert.isNull(response.body().Interesado.Email)
  })

  test("deliveries go to the configurations of the inquiry's audience, and to no other", async ({
    client,
    assert,
  }) => {
    // The configurations are read by the inquiry's INSERT itself (ReceiveInquiry): each
    // app that sees the inquiry gets its channel, other apps and agencies do not.
    const anyVersion = await catalogVersion()
    const world = await dealerWorld({ receivesOtherLeads: true })
    const { app: partner } = await createCaller('Partner (other leads)')
    const { app: plain } = await createCaller('Plain partner')
    await grantAgency(partner, world.adminMail, true)
    await grantAgency(plain, world.adminMail, false)
    const other = await createAgency(world.caller)
    const hook = (name: string) => `https://${name}.invalid/hook`
    await db.table('notification_configs').multiInsert([
      {
        app_id: world.caller.id,
        agency_id: world.fixture.agency.id,
        webhook_callback: hook('dealer'),
        webhook_active: true,
      },
      {
        app_id: partner.id,
        agency_id: world.fixture.agency.id,
        webhook_callback: hook('partner'),
        webhook_active: true,
      },
      {
        app_id: plain.id,
        agency_id: world.fixture.agency.id,
        webhook_callback: hook('plain'),
        webhook_active: true,
      },
      {
        app_id: world.caller.id,
        agency_id: other.agency.id,
        webhook_callback: hook('other'),
        webhook_active: true,
      },
    ])
    const targets = async (body: Record<string, unknown>) => {
      const response = await postInquiry(client, world, body)
      return (await deliveriesOf(sidOf(response.header('location')!))).map((d) => d.target)
    }

    assert.deepEqual(await targets(inquiryBody(world.listing.externalId)), [hook('dealer')])
    assert.sameMembers(
      await targets({
        VersionId: anyVersion,
        OrigenLead: 'portal',
        Interesado: { Telefono: '011 4444-5555' },
      }),
      [hook('dealer'), hook('partner')]
    )
  })

  test('406 for an unacceptable Accept, before anything is stored; reference body on request', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const url = `/v3/consultas/${world.adminMail}`
    const refused = await client
      .post(url)
      .bearerToken(world.token)
      .header('Accept', 'text/html')
      .json(inquiryBody(world.listing.externalId))
    refused.assertStatus(406)
    const stored = await db
      .from('inquiries')
      .where('agency_id', world.fixture.agency.id)
      .count('* as n')
    assert.equal(Number(stored[0].n), 0)
    const ref = await client
      .post(url)
      .bearerToken(world.token)
      .header('Accept', 'application/vnd.service.ref+json')
      .json(inquiryBody(world.listing.externalId, { Email: 'ref.buyer@example.com' }))
    ref.assertStatus(201)
    assert.equal(ref.body().href, new URL(ref.header('location')!).pathname)
    assert.match(ref.body().title, /^ref\.buyer@example\.com, Toyota Corolla .+, /)
  })

  test('403 without the consultas:crear ability; 404 when the agency does not exist for the app', async ({
    client,
  }) => {
    const world = await dealerWorld()
    const { token: plain } = await createCaller('No ability')
    const body = inquiryBody(world.listing.externalId)
    ;(
      await client.post(`/v3/consultas/${world.adminMail}`).bearerToken(plain).json(body)
    ).assertStatus(403)
    const { token: stranger } = await createCaller('Stranger', ['consultas:crear'])
    ;(
      await client.post(`/v3/consultas/${world.adminMail}`).bearerToken(stranger).json(body)
    ).assertStatus(404)
    ;(
      await client.post(`/v3/consultas/nadie@example.com`).bearerToken(world.token).json(body)
    ).assertStatus(404)
  })

  test('409 on suspended and archived listings; 400 on an unknown listing or version', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const suspended = await createListing(world.caller, world.fixture, { Activa: false })
    const archived = await createListing(world.caller, world.fixture, { Archivada: true })
    for (const listing of [suspended, archived]) {
      const response = await client
        .post(`/v3/consultas/${world.adminMail}`)
        .bearerToken(world.token)
        .json(inquiryBody(listing.externalId))
      response.assertStatus(409)
      assert.property(response.body().Errors, 'ExternalId')
    }
    const unknown = await client
      .post(`/v3/consultas/${world.adminMail}`)
      .bearerToken(world.token)
      .json(inquiryBody('no-existe'))
    unknown.assertStatus(400)
    assert.property(unknown.body().Errors, 'ExternalId')
    const noVersion = await client
      .post(`/v3/consultas/${world.adminMail}`)
      .bearerToken(world.token)
      .json({ VersionId: 999999999, OrigenLead: 'App', Interesado: { Email: 'a@example.com' } })
    noVersion.assertStatus(400)
    assert.property(noVersion.body().Errors, 'VersionId')
    const count = await db
      .from('inquiries')
      .where('agency_id', world.fixture.agency.id)
      .count('* as n')
    assert.equal(Number(count[0].n), 0)
  })

  test('validation: contact required, one subject, closed values, every length cap on both sides', async ({
    client,
    assert,
  }) => {
    const world = await dealerWorld()
    const post = (body: object) =>
      client.post(`/v3/consultas/${world.adminMail}`).bearerToken(world.token).json(body)
    const errorsOf = async (body: object) => {
      const response = await post(body)
      response.assertStatus(400)
      return Object.keys(response.body().Errors).sort()
    }
    const ext = world.listing.externalId
    const buyer = (fields: Record<string, unknown>) => inquiryBody(ext, fields)

    assert.deepEqual(await errorsOf(buyer({ Email: null, Telefono: null })), ['Interesado'])
    ;(await post(buyer({ Email: null }))).assertStatus(201)
    ;(await post(buyer({ Telefono: '' }))).assertStatus(201)
    assert.deepEqual(
      await errorsOf({ OrigenLead: 'App', Interesado: { Email: 'a@example.com' } }),
      ['_']
    )
    assert.deepEqual(
      await errorsOf({
        ExternalId: ext,
        VersionId: 1,
        OrigenLead: 'App',
        Interesado: { Email: 'a@example.com' },
      }),
      ['_']
    )
    assert.deepEqual(await errorsOf({ ...buyer({}), OrigenLead: 'Fax' }), ['OrigenLead'])
    assert.deepEqual(await errorsOf({ ...buyer({}), OrigenLead: undefined }), ['OrigenLead'])
    assert.deepEqual(await errorsOf(buyer({ Interes: 'Alquiler' })), ['Interesado.Interes'])
    assert.deepEqual(await errorsOf(buyer({ Email: 'no-es-mail' })), ['Interesado.Email'])

    const caps: Array<[string, number, string]> = [
      ['Nombre', 50, 'a'],
      ['Apellido', 50, 'a'],
      ['DocIdentidad', 20, '1'],
      ['Provincia', 100, 'a'],
      ['Ciudad', 100, 'a'],
      ['Comentario', 2000, 'a'],
      ['Telefono', 30, '1'],
    ]
    for (const [field, max, char] of caps) {
      ;(await post(buyer({ [field]: char.repeat(max) }))).assertStatus(201)
      assert.deepEqual(
        await errorsOf(buyer({ [field]: char.repeat(max + 1) })),
        [`Interesado.${field}`],
        field
      )
    }
    ;(await post(buyer({ Telefono: '123456' }))).assertStatus(201)
    assert.deepEqual(await errorsOf(buyer({ Telefono: '12345' })), ['Interesado.Telefono'])
    // A local part is at most 64 characters and a label 63: reach 100 with a long domain.
    const local = (length: number) => `a@${'b'.repeat(63)}.${'c'.repeat(length - 70)}.com`
    ;(await post(buyer({ Email: local(100) }))).assertStatus(201)
    assert.deepEqual(await errorsOf(buyer({ Email: local(101) })), ['Interesado.Email'])
    assert.deepEqual(
      await errorsOf(buyer({ InfoOperacion: { EntregaVehiculo: { VersionYear: 1907 } } })),
      ['Interesado.InfoOperacion.EntregaVehiculo.VersionYear']
    )
    ;(
      await post(buyer({ InfoOperacion: { EntregaVehiculo: { VersionYear: 1908 } } }))
    ).assertStatus(201)
    assert.deepEqual(
      await errorsOf(
        buyer({ InfoOperacion: { FinanciacionDeseada: { Cuota: { Moneda: 'EUR', Importe: 1 } } } })
      ),
      ['Interesado.InfoOperacion.FinanciacionDeseada.Cuota.Moneda']
    )
  })
})
