/*
 * POST /autos/{slug}/consultas: the listing's inquiry form through the API's
 * intake — validation with messages by the fields (both sides of each
 * limit), CSRF, honeypot, per-IP rate limit, Post/Redirect/Get.
 */
import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import {
  cookiesOf,
  formFields,
  get,
  openForm,
  postForm,
  visitor,
  type Visitor,
} from '#tests/helpers/buyers'
import { FORM_LIMIT } from '#buyers/limits'

async function world(listing: Record<string, unknown> = {}) {
  const { app, token } = await createCaller('Portal form')
  const fixture = await createAgency(app, { tradeName: 'Concesionaria Norte' })
  const snapshot = await createListing(app, fixture, listing)
  const path = `/autos/${snapshot.slug}`
  return { app, token, fixture, listing: snapshot, path, adminMail: fixture.agency.adminMail }
}

/** Opens the page as a new visitor and posts `fields` with its token. */
async function submit(
  client: ApiClient,
  path: string,
  fields: Record<string, string>,
  who: Visitor = visitor()
) {
  const { csrf } = await openForm(client, path, who)
  return postForm(client, `${path}/consultas`, who, { _csrf: csrf, ...fields })
}

/** The inquiries the listing received, as its app reads them through the API. */
async function inquiriesOf(
  client: ApiClient,
  adminMail: string,
  token: string,
  externalId: string
) {
  const response = await client
    .get(`/v3/consultas/${adminMail}`)
    .qs({ externalid: externalId })
    .bearerToken(token)
  response.assertStatus(200)
  return (response.body()._entries as any[]).filter((entry) => entry.Auto.ExternalId === externalId)
}

/** A valid address of exactly `length` characters. */
function emailOfLength(length: number) {
  const local = `e${Date.now().toString(36)}`.padEnd(40, 'e')
  return `${local}@${'d'.repeat(length - local.length - 13)}.example.com`
}

/** The error shown next to `field`, or null. */
function fieldError(html: string, field: string): string | null {
  return new RegExp(`<p class="error" id="error-${field}">([^<]+)</p>`).exec(html)?.[1] ?? null
}

test.group('Listing inquiry form', () => {
  test('a valid inquiry goes through the intake and the buyer sees the confirmation', async ({
    client,
    assert,
  }) => {
    const { path, adminMail, token, listing } = await world()
    const who = visitor()
    const fields = formFields({ Nombre: 'Martina', Interes: 'PruebaDeManejo' })
    const response = await submit(client, path, fields, who)
    response.assertStatus(303)
    assert.equal(response.header('location'), `${path}/consulta-enviada`)
    who.cookie = cookiesOf(response.headers()['set-cookie'], who.cookie)

    const confirmation = await get(client, `${path}/consulta-enviada`, who)
    confirmation.assertStatus(200)
    const html = confirmation.text()
    assert.include(html, '¡Listo, Martina! Tu consulta fue enviada')
    assert.include(html, 'Concesionaria Norte')
    assert.include(html, fields.Email)

    const [inquiry] = await inquiriesOf(client, adminMail, token, listing.externalId)
    assert.equal(inquiry.OrigenLead, 'Portal')
    assert.equal(inquiry.TipoAnuncio, 'Publicacion')
    assert.equal(inquiry.Auto.ExternalId, listing.externalId)
    assert.include(inquiry.Interesado, {
      Nombre: 'Martina',
      Apellido: 'Gómez',
      Email: fields.Email,
      Telefono: fields.Telefono,
      Interes: 'PruebaDeManejo',
    })
    assert.match(
      html,
      new RegExp(
        `Número de consulta: <strong>${inquiry._links.self.href.split('/').pop()}</strong>`
      )
    )

    // The confirmation is shown once (flash); reloading it goes back to the listing.
    who.cookie = cookiesOf(confirmation.headers()['set-cookie'], who.cookie)
    const reload = await get(client, `${path}/consulta-enviada`, who)
    reload.assertStatus(303)
    assert.equal(reload.header('location'), path)
  })

  test('optional fields may be left empty; e-mail or phone is enough', async ({
    client,
    assert,
  }) => {
    const { path, adminMail, token, listing } = await world()
    const onlyPhone = await submit(
      client,
      path,
      formFields({ Apellido: '', Email: '', Comentario: '' })
    )
    onlyPhone.assertStatus(303)
    const onlyEmail = await submit(client, path, formFields({ Telefono: '' }))
    onlyEmail.assertStatus(303)
    assert.lengthOf(await inquiriesOf(client, adminMail, token, listing.externalId), 2)
  })

  test('each limit is accepted at the edge and refused past it, with the message by the field', async ({
    client,
    assert,
  }) => {
    const { path, adminMail, token, listing } = await world()
    const cases: Array<[string, string, string]> = [
      // field, value at the edge (accepted), value past it (refused)
      ['Nombre', 'N'.repeat(50), 'N'.repeat(51)],
      ['Apellido', 'A'.repeat(50), 'A'.repeat(51)],
      ['Email', emailOfLength(100), emailOfLength(101)],
      ['Telefono', '4555-1', '455-1'],
      ['Telefono', '+54 (11) 4555-1234 000 111 222', '+54 (11) 4555-1234 000 111 2222'],
      ['Comentario', 'c'.repeat(2000), 'c'.repeat(2001)],
    ]
    let accepted = 0
    for (const [field, edge, past] of cases) {
      const ok = await submit(client, path, formFields({ [field]: edge }))
      assert.equal(ok.status(), 303, `${field} of length ${edge.length} should be accepted`)
      accepted += 1
      const refused = await submit(client, path, formFields({ [field]: past }))
      assert.equal(refused.status(), 400, `${field} of length ${past.length} should be refused`)
      const html = refused.text()
      assert.isNotNull(fieldError(html, field), `error next to ${field}`)
      assert.include(html, `aria-describedby="error-${field}"`)
      // What the buyer typed is kept.
      assert.include(html, field === 'Comentario' ? `>${past}</textarea>` : `value="${past}"`)
    }
    assert.lengthOf(await inquiriesOf(client, adminMail, token, listing.externalId), accepted)
  })

  test('bad values are refused with a message by each field', async ({ client, assert }) => {
    const { path, adminMail, token, listing } = await world()
    const cases: Array<[Record<string, string>, string]> = [
      [{ Email: 'no-es-un-correo' }, 'Email'],
      [{ Telefono: 'llamame' }, 'Telefono'],
      [{ Interes: 'Alquiler' }, 'Interes'],
      [{ Nombre: '' }, 'Nombre'],
      [{ Nombre: '   ' }, 'Nombre'],
      [{ Email: '', Telefono: '' }, 'Email'],
    ]
    for (const [overrides, field] of cases) {
      const response = await submit(client, path, formFields(overrides))
      assert.equal(response.status(), 400, JSON.stringify(overrides))
      assert.isNotNull(
        fieldError(response.text(), field),
        `${JSON.stringify(overrides)} → error by ${field}`
      )
      assert.include(response.text(), 'Revisá estos datos')
    }
    assert.lengthOf(await inquiriesOf(client, adminMail, token, listing.externalId), 0)
  })

  test('without a CSRF token, with a bad one, or without the session cookie: 403 page, nothing stored', async ({
    client,
    assert,
  }) => {
    const { path, adminMail, token, listing } = await world()
    const { csrf, who } = await openForm(client, path)

    const missing = await postForm(client, `${path}/consultas`, who, formFields())
    missing.assertStatus(403)
    assert.match(missing.header('content-type') ?? '', /^text\/html/)
    assert.include(missing.text(), 'El formulario venció')

    const bad = await postForm(client, `${path}/consultas`, who, {
      _csrf: `${csrf.slice(0, -2)}xx`,
      ...formFields(),
    })
    bad.assertStatus(403)

    const noCookie = await postForm(
      client,
      `${path}/consultas`,
      { ...who, cookie: undefined },
      { _csrf: csrf, ...formFields() }
    )
    noCookie.assertStatus(403)

    // Another visitor's token does not fit this session.
    const other = visitor()
    const { csrf: othersToken } = await openForm(client, path, other)
    const foreign = await postForm(client, `${path}/consultas`, who, {
      _csrf: othersToken,
      ...formFields(),
    })
    foreign.assertStatus(403)

    assert.lengthOf(await inquiriesOf(client, adminMail, token, listing.externalId), 0)
    // The right token still works.
    const good = await postForm(client, `${path}/consultas`, who, { _csrf: csrf, ...formFields() })
    good.assertStatus(303)
  })

  test('the API is not CSRF-protected and starts no session', async ({ client, assert }) => {
    const { adminMail, token } = await world()
    const response = await client.get(`/v3/consultas/${adminMail}`).bearerToken(token)
    response.assertStatus(200)
    assert.isUndefined(response.headers()['set-cookie'])
    assert.isUndefined(response.headers()['content-security-policy'])
  })

  test('a filled honeypot is answered like a success but stores nothing', async ({
    client,
    assert,
  }) => {
    const { path, adminMail, token, listing } = await world()
    const response = await submit(client, path, formFields({ Sitio: 'http://spam.example' }))
    response.assertStatus(303)
    assert.equal(response.header('location'), `${path}/consulta-enviada`)
    assert.lengthOf(await inquiriesOf(client, adminMail, token, listing.externalId), 0)
  })

  test(`one IP may post ${FORM_LIMIT.requests} times per window; the next post is 429`, async ({
    client,
    assert,
  }) => {
    const { path } = await world()
    const { csrf, who } = await openForm(client, path)
    for (let n = 1; n <= FORM_LIMIT.requests; n++) {
      // Invalid posts count too: the limit is on attempts.
      const response = await postForm(client, `${path}/consultas`, who, {
        _csrf: csrf,
        ...formFields({ Email: 'x' }),
      })
      assert.equal(response.status(), 400, `post ${n}`)
    }
    const limited = await postForm(client, `${path}/consultas`, who, {
      _csrf: csrf,
      ...formFields(),
    })
    limited.assertStatus(429)
    assert.match(limited.header('content-type') ?? '', /^text\/html/)
    assert.match(limited.header('retry-after') ?? '', /^\d+$/)
    assert.include(limited.text(), 'Esperá unos minutos')
    // Another IP is not affected.
    const other = await submit(client, path, formFields())
    other.assertStatus(303)
  })

  test('a suspended listing takes no inquiries (410); an unknown one is 404', async ({
    client,
  }) => {
    const { path } = await world({ Activa: false })
    const who = visitor()
    const { csrf } = await openForm(client, (await world()).path, who)
    const suspended = await postForm(client, `${path}/consultas`, who, {
      _csrf: csrf,
      ...formFields(),
    })
    suspended.assertStatus(410)
    const unknown = await postForm(client, '/autos/no-existe-123/consultas', who, {
      _csrf: csrf,
      ...formFields(),
    })
    unknown.assertStatus(404)
  })
})
