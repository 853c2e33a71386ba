/*
 * GET /modelos/{id} and its catalogue inquiry form (TipoAnuncio Catalogo,
 * sent to an agency of the buyer's region that receives other leads).
 */
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { seedCatalog } from '#tests/helpers/catalog'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { cookiesOf, formFields, get, openForm, postForm, visitor } from '#tests/helpers/buyers'

async function corolla() {
  const seed = await seedCatalog()
  const modelId = seed.models['toyota/corolla']
  return { seed, modelId, path: `/modelos/${modelId}` }
}

/** A new visitor sends the Corolla 2.0 XEI CVT's form for `region`. */
async function sendCatalogueInquiry(
  client: ApiClient,
  path: string,
  region: number,
  fields: Record<string, string> = {}
) {
  const page = await get(client, path, visitor())
  const version = /<option value="(\d+)"[^>]*>2\.0 XEI CVT/.exec(page.text())![1]
  const { csrf, who } = await openForm(client, path)
  const response = await postForm(client, `${path}/consultas`, who, {
    _csrf: csrf,
    ...formFields(fields),
    Region: String(region),
    VersionId: version,
  })
  return { response, who }
}

test.group('Model page', () => {
  test('shows the model with its versions and a form with region and version', async ({
    client,
    assert,
  }) => {
    const { path } = await corolla()
    const response = await get(client, path, visitor())
    response.assertStatus(200)
    const html = response.text()
    assert.include(html, '<h1>Toyota Corolla</h1>')
    assert.include(html, '<title>Toyota Corolla 0 km — versiones y consultas |')
    // New-market versions of the fixture, in a table with headers.
    for (const version of ['2.0 XEI CVT', '2.0 SEG CVT', '1.8 HEV SEG'])
      assert.include(html, `<th scope="row">${version}</th>`)
    assert.notInclude(html, '<th scope="row">1.8 XLI MT</th>')
    assert.match(html, /<select id="campo-Region" name="Region" required aria-required="true">/)
    assert.include(html, '>Córdoba</option>')
    assert.match(html, /<select id="campo-VersionId" name="VersionId"/)
    assert.match(html, /name='_csrf' value='[^']+'/)
    assert.equal(response.header('cache-control'), 'private, no-cache')
  })

  test('an unknown model is a 404 page', async ({ client, assert }) => {
    const response = await get(client, '/modelos/999999999', visitor())
    response.assertStatus(404)
    assert.include(response.text(), 'No encontramos este modelo')
  })

  test('region and version are required and must be offered ones', async ({ client, assert }) => {
    const { path, seed } = await corolla()
    const { csrf, who } = await openForm(client, path)
    const hilux =
      Object.entries(seed.versions ?? {}).find(([key]) => key.startsWith('hilux'))?.[1] ?? 999999
    const cases: Array<[Record<string, string>, string]> = [
      [{ Region: '', VersionId: '' }, 'Region'],
      [{ Region: String(seed.regions['AR-X']), VersionId: String(hilux) }, 'VersionId'],
      [{ Region: '999999', VersionId: '' }, 'Region'],
    ]
    for (const [choice, field] of cases) {
      const response = await postForm(client, `${path}/consultas`, who, {
        _csrf: csrf,
        ...formFields(),
        ...choice,
      })
      assert.equal(response.status(), 400, JSON.stringify(choice))
      assert.match(response.text(), new RegExp(`<p class="error" id="error-${field}">`))
    }
  })

  test('a region without an agency receiving other leads is refused with a message by the region (409)', async ({
    client,
    assert,
  }) => {
    const { path, seed } = await corolla()
    const { response } = await sendCatalogueInquiry(client, path, seed.regions['AR-C'])
    response.assertStatus(409)
    assert.match(
      response.text(),
      /<p class="error" id="error-Region">Todavía ninguna agencia de Ciudad Autónoma de Buenos Aires/
    )
  })

  test('a catalogue inquiry reaches an agency of the region that receives other leads', async ({
    client,
    assert,
  }) => {
    const { path, seed } = await corolla()
    const { app: caller, token } = await createCaller('Catalogo')
    const fixture = await createAgency(caller, {
      receivesOtherLeads: true,
      tradeName: 'Santa Fe Autos',
    })
    const branches = await client
      .get(`/v3/sucursales/${fixture.agency.adminMail}`)
      .bearerToken(token)
    const main = branches.body()._entries[0]
    const placed = await client
      .put(main._links.self.href)
      .bearerToken(token)
      .json({ Region: 'AR-S', Ciudad: 'Rosario' })
    placed.assertStatus(200)

    const { response, who } = await sendCatalogueInquiry(client, path, seed.regions['AR-S'], {
      Nombre: 'Julián',
    })
    response.assertStatus(303)
    who.cookie = cookiesOf(response.headers()['set-cookie'], who.cookie)
    const confirmation = await get(client, `${path}/consulta-enviada`, who)
    assert.include(confirmation.text(), '¡Listo, Julián! Tu consulta fue enviada')
    assert.include(confirmation.text(), 'Santa Fe Autos')

    const list = await client.get(`/v3/consultas/${fixture.agency.adminMail}`).bearerToken(token)
    const [inquiry] = (list.body()._entries as any[]).filter(
      (entry) => entry.Interesado.Nombre === 'Julián'
    )
    assert.equal(inquiry.TipoAnuncio, 'Catalogo')
    assert.equal(inquiry.OrigenLead, 'Portal')
    assert.equal(inquiry.Auto.ExternalId, '')
    assert.equal(inquiry.Auto.Version, '2.0 XEI CVT')
    assert.equal(inquiry.Interesado.Provincia, 'Santa Fe')
  })
})
