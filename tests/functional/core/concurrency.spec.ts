/*
 * Writes under more concurrency than the database pool has connections: a
 * write that runs a query outside its own transaction while holding one would
 * starve the pool (every connection waiting for another) and answer 500 after
 * the acquire timeout. Each burst must settle quickly and without a 500.
 */
import { test } from '@japa/runner'
import { seedCatalog } from '#tests/helpers/catalog'
import { dealerWorld, inquiryBody } from '#tests/helpers/leads'
import { listingBody, uniqueExternalId } from '#tests/helpers/listings'
import { uniqueEmail } from '#tests/helpers/agencies'
import { raw } from '#tests/helpers/http'

const BURST = 14 // > the pool's 10 connections

async function burst(
  token: string,
  method: string,
  path: (i: number) => string,
  body: (i: number) => object
) {
  const responses = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      raw(path(i), {
        method,
        headers: { 'Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body(i)),
        signal: AbortSignal.timeout(20_000),
      })
    )
  )
  return Promise.all(
    responses.map(async (response) => ({ status: response.status, body: await response.text() }))
  )
}

function assertSettled(assert: any, results: { status: number; body: string }[]) {
  const failed = results.filter((result) => result.status >= 500)
  assert.deepEqual(failed, [], 'no write may answer 5xx under concurrency')
  assert.isTrue(
    results.every((result) => result.status < 300),
    results.map((r) => `${r.status} ${r.body.slice(0, 200)}`).join('\n')
  )
}

test.group('Concurrent writes', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('PUT the same listing with a location', async ({ assert }) => {
    const { token, adminMail, listing } = await dealerWorld()
    const { ExternalId, Marca, Modelo, Version, ...edit } = listingBody({
      Locacion: { Region: 'Córdoba', Ciudad: 'Río Cuarto', Direccion: 'Sobremonte 100' },
    })
    ;(void ExternalId, Marca, Modelo, Version)
    assertSettled(
      assert,
      await burst(
        token,
        'PUT',
        () => `/v3/publicaciones/${adminMail}/${listing.externalId}`,
        () => edit
      )
    )
  })

  test('POST listings with a location', async ({ assert }) => {
    const { token, adminMail } = await dealerWorld()
    const results = await burst(
      token,
      'POST',
      () => `/v3/publicaciones/${adminMail}`,
      () =>
        listingBody({
          ExternalId: uniqueExternalId(),
          Locacion: { Region: 'Santa Fe', Ciudad: 'Rosario', Direccion: 'Oroño 1' },
        })
    )
    assertSettled(assert, results)
  })

  test('POST inquiries', async ({ assert }) => {
    const { token, adminMail, listing } = await dealerWorld()
    assertSettled(
      assert,
      await burst(
        token,
        'POST',
        () => `/v3/consultas/${adminMail}`,
        () => inquiryBody(listing.externalId)
      )
    )
  })

  test('POST agencies (invitations) with a place', async ({ assert }) => {
    const { token } = await dealerWorld()
    const results = await burst(
      token,
      'POST',
      () => '/v3/agencias',
      () => ({
        AdminMail: uniqueEmail('invited'),
        NombreComercial: 'Autos Concurrentes',
        Region: 'Buenos Aires',
        Ciudad: 'La Plata',
        Direccion: 'Calle 7 nro 100',
        Telefono: '+5492215551234',
      })
    )
    assertSettled(assert, results)
  })

  test('POST branches and PUT the administrator with a place', async ({ assert }) => {
    const { token, adminMail } = await dealerWorld()
    const branches = await burst(
      token,
      'POST',
      () => `/v3/sucursales/${adminMail}`,
      (i) => ({
        Descripcion: `Sucursal ${i}`,
        Region: 'Córdoba',
        Ciudad: 'Villa Carlos Paz',
        Direccion: `Av. Libertad ${i}`,
        Telefono: '+5493541555123',
      })
    )
    assertSettled(assert, branches)
    const operators = await burst(
      token,
      'PUT',
      () => `/v3/operadores/${adminMail}`,
      () => ({
        Region: 'Santa Fe',
        Ciudad: 'Rafaela',
        Direccion: 'Bv. Santa Fe 1',
      })
    )
    assertSettled(assert, operators)
  })

  test('PUT notification configuration', async ({ assert }) => {
    const { token, adminMail } = await dealerWorld()
    const results = await burst(
      token,
      'PUT',
      () => `/v3/notificaciones/${adminMail}`,
      () => ({
        PublicacionConsultadaHtmlMail: { EmailsCCO: 'ventas@example.com', Activo: true },
      })
    )
    assertSettled(assert, results)
  })
})
