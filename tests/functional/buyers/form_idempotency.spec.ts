/*
 * The buyers' inquiry form carries a key drawn at each render (ClaveEnvio,
 * docs/design.md §14): a double submission of one rendered form makes one
 * inquiry, and the repeat shows the same confirmation.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { cookiesOf, formFields, get, openForm, postForm, visitor } from '#tests/helpers/buyers'

async function world() {
  const { app } = await createCaller('Portal form')
  const fixture = await createAgency(app, { tradeName: 'Concesionaria Sur' })
  const listing = await createListing(app, fixture)
  return { path: `/autos/${listing.slug}`, agencyId: fixture.agency.id }
}

const keyOf = (html: string) => /name="ClaveEnvio" value="([^"]+)"/.exec(html)?.[1]

async function inquiryCount(agencyId: number) {
  const row = await db.from('inquiries').where('agency_id', agencyId).count('* as n').first()
  return Number(row.n)
}

test.group('Buyers’ inquiry form: one inquiry per rendered form', () => {
  test('each render draws a new key', async ({ client, assert }) => {
    const { path } = await world()
    const first = keyOf((await openForm(client, path, visitor())).page.text())
    const second = keyOf((await openForm(client, path, visitor())).page.text())
    assert.match(first!, /^[0-9a-f-]{36}$/)
    assert.notEqual(first, second)
  })

  test('submitted twice: one inquiry, and the repeat shows the same confirmation', async ({
    client,
    assert,
  }) => {
    const { path, agencyId } = await world()
    const { page, csrf, who } = await openForm(client, path)
    const fields = { _csrf: csrf, ClaveEnvio: keyOf(page.text())!, ...formFields() }
    const first = await postForm(client, `${path}/consultas`, who, fields)
    first.assertStatus(303)
    const firstCookie = cookiesOf(first.headers()['set-cookie'], who.cookie)
    const repeat = await postForm(client, `${path}/consultas`, who, fields)
    repeat.assertStatus(303)
    assert.equal(repeat.header('location'), first.header('location'))
    assert.equal(repeat.header('idempotent-replayed'), 'true')
    assert.equal(await inquiryCount(agencyId), 1)

    // Both answers lead to the confirmation, with the one inquiry's number.
    const [inquiry] = await db.from('inquiries').where('agency_id', agencyId)
    for (const cookie of [firstCookie, cookiesOf(repeat.headers()['set-cookie'], who.cookie)]) {
      const confirmation = await get(client, `${path}/consulta-enviada`, { ...who, cookie })
      confirmation.assertStatus(200)
      assert.include(confirmation.text(), `Número de consulta: <strong>${inquiry.sid}</strong>`)
    }

    // The page rendered again is a new form: a new inquiry.
    const again = await openForm(client, path, who)
    const next = await postForm(client, `${path}/consultas`, who, {
      ...fields,
      _csrf: again.csrf,
      ClaveEnvio: keyOf(again.page.text())!,
    })
    next.assertStatus(303)
    assert.equal(await inquiryCount(agencyId), 2)
  })

  test('eight submissions at once: one inquiry', async ({ client, assert }) => {
    const { path, agencyId } = await world()
    const { page, csrf, who } = await openForm(client, path)
    const fields = { _csrf: csrf, ClaveEnvio: keyOf(page.text())!, ...formFields() }
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => postForm(client, `${path}/consultas`, who, fields))
    )
    assert.deepEqual(
      responses.map((response) => response.status()),
      Array(8).fill(303)
    )
    assert.equal(await inquiryCount(agencyId), 1)
  }).timeout(60_000)

  test('a form without the key (rendered before it existed) still goes through', async ({
    client,
    assert,
  }) => {
    const { path, agencyId } = await world()
    const { csrf, who } = await openForm(client, path)
    const response = await postForm(client, `${path}/consultas`, who, {
      _csrf: csrf,
      ...formFields(),
    })
    response.assertStatus(303)
    assert.equal(await inquiryCount(agencyId), 1)
  })
})
