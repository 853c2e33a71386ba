/*
 * The input gate (docs/design.md §13, issue 11 items 1 and 2): hostile bytes in
 * paths, queries, JSON and forms, ids beyond their column, malformed
 * percent-encoding, scalar JSON bodies and broken Content-Encoding answer
 * problem documents, never a 500; valid text on the other side of each edge
 * still passes unchanged.
 */
import { test } from '@japa/runner'
import { gzipSync } from 'node:zlib'
import { connect } from 'node:net'
import { request as httpRequest } from 'node:http'
import { baseUrl, raw } from '#tests/helpers/http'
import { uniqueEmail } from '#tests/helpers/agencies'
import { dealerWorld, inquiryBody } from '#tests/helpers/leads'
import { listingBody } from '#tests/helpers/listings'
import { seedCatalog } from '#tests/helpers/catalog'
import { formFields, openForm, postForm, visitor } from '#tests/helpers/buyers'

type Answer = { status: number; headers: Headers; text: string; body: any }

async function send(path: string, init: RequestInit & { token?: string } = {}): Promise<Answer> {
  const headers = new Headers(init.headers)
  if (init.token) headers.set('Authorization', `Bearer ${init.token}`)
  const response = await raw(path, { ...init, headers })
  const text = await response.text()
  let body: any = null
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: response.status, headers: response.headers, text, body }
}

const json = (value: unknown, token?: string, method = 'POST') => ({
  method,
  token,
  headers: { 'Content-Type': 'application/json' },
  body: typeof value === 'string' ? value : JSON.stringify(value),
})

/** A problem document with the request id in header and body. */
function assertProblem(assert: any, answer: Answer, status: number) {
  assert.equal(answer.status, status, answer.text)
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/)
  assert.equal(answer.body.Status, status)
  assert.isString(answer.headers.get('x-request-id'))
  assert.equal(answer.body.Extensions.TraceId, answer.headers.get('x-request-id'))
  assert.include(answer.headers.get('vary') ?? '', 'Accept')
  return answer.body
}

function assertErrorKey(assert: any, answer: Answer, key: string) {
  assert.include(Object.keys(answer.body?.Errors ?? {}), key, answer.text)
}

/** A request with an exact, unnormalised request target. */
function rawTarget(target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(baseUrl())
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: target, method: 'GET', headers },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => {
          let body: any = null
          try {
            body = JSON.parse(text)
          } catch {}
          const h = new Headers()
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') h.set(name, value)
          resolve({ status: res.statusCode!, headers: h, text, body })
        })
      }
    )
    req.on('error', reject)
    req.end()
  })
}

/** Bytes written straight to a socket: what Node's own HTTP parser refuses. */
function rawSocket(bytes: string): Promise<string> {
  const url = new URL(baseUrl())
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes))
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => resolve(text))
    socket.on('close', () => resolve(text))
    socket.on('error', reject)
  })
}

/** Each group's own dealer (agency, token, listing), set by its setup. */
let world: Awaited<ReturnType<typeof dealerWorld>>
const freshWorld = async () => void (world = await dealerWorld())

test.group('Input gate: NUL and unpaired surrogates', (group) => {
  group.setup(freshWorld)

  test('NUL in a path parameter → 400 naming _path.<param>', async ({ assert }) => {
    const { token, adminMail } = world
    let answer = await send('/v3/publicaciones/a%00@b.c/X1', { token })
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, '_path.adminmail')
    answer = await send(`/v3/consultas/${adminMail}/%00`, { token })
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, '_path.sid')
    answer = await send(`/v3/publicaciones/${adminMail}/ab%00cd`, { token })
    assertErrorKey(assert, answer, '_path.externalid')
  })

  test('NUL in a path parameter without credentials → 400, not 500', async ({ assert }) => {
    const answer = await send('/v3/publicaciones/a%00@b.c/X1')
    assertProblem(assert, answer, 400)
    // The buyers' pages answer with their own HTML error page.
    const page = await send('/autos/%00')
    assert.equal(page.status, 400)
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/)
    assert.isString(page.headers.get('x-request-id'))
  })

  test('NUL in query values → 400 naming the parameter', async ({ assert }) => {
    const { token } = world
    for (const [path, key] of [
      ['/v3/marcas?q=%00', 'q'],
      ['/v3/ciudades?region=%00', 'region'],
      ['/v3/modelos/bestmatch?make=%00&model=x', 'make'],
      ['/v3/marcas?q=a%ED%A0%80b', 'q'],
    ] as const) {
      const answer = await send(path, { token })
      assertProblem(assert, answer, 400)
      assertErrorKey(assert, answer, key)
    }
  })

  test('NUL and lone surrogates in JSON fields at any depth → 400 naming the field', async ({
    assert,
  }) => {
    const { token, adminMail, listing } = world
    let answer = await send(
      '/v3/agencias',
      json({ AdminMail: uniqueEmail(), NombreComercial: 'Agencia\u0000X' }, token)
    )
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'NombreComercial')

    // The escape travels as JSON text, as a client sends it.
    answer = await send(
      '/v3/agencias',
      json('{"AdminMail": "\\ud800x@example.com", "NombreComercial": "Agencia"}', token)
    )
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'AdminMail')

    const inquiry = inquiryBody(listing.externalId, { Nombre: 'Lu\u0000cía' })
    answer = await send(`/v3/consultas/${adminMail}`, json(inquiry, token))
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'Interesado.Nombre')

    const trade = JSON.stringify(inquiryBody(listing.externalId, { Email: 'X_EMAIL_X' }))
      .replace('"X_EMAIL_X"', '"a\\udc00@example.com"')
      .replace(
        '"Interesado"',
        '"InfoOperacion":{"EntregaVehiculo":{"Marca":"Fi\\ud800at"}},"Interesado"'
      )
    answer = await send(`/v3/consultas/${adminMail}`, json(trade, token))
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'InfoOperacion.EntregaVehiculo.Marca')
    assertErrorKey(assert, answer, 'Interesado.Email')

    const custom = JSON.stringify(
      listingBody({
        Version: 'Edición especial',
        Transmision: 'Manual',
        Propulsion: 'Nafta',
        DatosTecnicosCustom: [
          { Nombre: 'ok', Valor: 'v' },
          { Nombre: 'X_N_X', Valor: 'v' },
        ],
      })
    ).replace('"X_N_X"', '"\\udfff"')
    answer = await send(`/v3/publicaciones/${adminMail}`, json(custom, token))
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'DatosTecnicosCustom.1.Nombre')

    answer = await send(
      `/v3/publicaciones/${adminMail}`,
      json(
        {
          ...listingBody(),
          Fotos: [
            'https://a.example/1.jpg',
            'https://a.example/2.jpg',
            'https://a.example/\u0000.jpg',
          ],
        },
        token
      )
    )
    assertErrorKey(assert, answer, 'Fotos.2')
  })

  test('lone surrogates in e-mail lists and the registration form → 400 naming the field', async ({
    assert,
  }) => {
    const { token, adminMail } = world
    const config = JSON.stringify({
      PublicacionConsultadaHtmlMail: { EmailsCCO: 'X_CCO_X' },
    }).replace('"X_CCO_X"', '"a@example.com, b\\ud800@example.com"')
    let answer = await send(`/v3/notificaciones/${adminMail}`, json(config, token, 'PUT'))
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'PublicacionConsultadaHtmlMail.EmailsCCO')
    const register = (body: string) =>
      send('/registro/token-inexistente', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'Accept': 'application/json',
        },
        body,
      })
    answer = await register('AdminNombre=a%00b&AdminApellido=%FF&Password=0123456789')
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'AdminNombre')
    assertErrorKey(assert, answer, 'AdminApellido')
    // A clean form reaches the page's own answer (unknown token → 404).
    answer = await register('AdminNombre=Ana&AdminApellido=P%C3%A9rez&Password=0123456789')
    assert.equal(answer.status, 404)
  })

  test('a NUL in an object key is named too', async ({ assert }) => {
    const answer = await send(
      '/v3/agencias',
      json('{"Admin\\u0000Mail": "x@example.com"}', world.token)
    )
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'Admin\u0000Mail')
  })

  test('valid UTF-8: accents and emoji (paired surrogates) are stored byte-identical', async ({
    assert,
  }) => {
    const { token, adminMail } = world
    const text = 'Único dueño, ñandú 🚗🇦🇷 — “impecable” 𝄞'
    const body = listingBody({ Descripcion: text, Color: 'Azul 💙' })
    const created = await send(`/v3/publicaciones/${adminMail}`, json(body, token))
    assert.equal(created.status, 201, created.text)
    const read = await send(`/v3/publicaciones/${adminMail}/${body.ExternalId}`, { token })
    assert.equal(read.status, 200)
    assert.equal(read.body.Descripcion, text)
    assert.equal(read.body.Color, 'Azul 💙')
    // Escaped surrogate pairs are the same text.
    const escaped = JSON.stringify(listingBody({ Descripcion: 'X_D_X' })).replace(
      '"X_D_X"',
      '"\\ud83d\\ude97"'
    )
    const again = await send(`/v3/publicaciones/${adminMail}`, json(escaped, token))
    assert.equal(again.status, 201, again.text)
    assert.equal(again.body.Descripcion, '🚗')
  })

  test('buyers form: NUL in a field → 400, never a 500 page; a clean form still passes', async ({
    assert,
    client,
  }) => {
    const { listing } = world
    const who = visitor()
    const path = `/autos/${listing.slug}`
    await openForm(client, path, who)
    const { csrf } = await openForm(client, path, who)
    const bad = await postForm(client, `${path}/consultas`, who, {
      ...formFields({ Nombre: 'a\u0000b' }),
      _csrf: csrf,
    })
    assert.equal(bad.status(), 400)
    assert.match(bad.header('content-type')!, /^text\/html/)
    assert.include(bad.text(), 'No pudimos procesar el pedido')
    assert.notInclude(bad.text(), 'Algo salió mal')
    const good = await postForm(client, `${path}/consultas`, who, { ...formFields(), _csrf: csrf })
    assert.equal(good.status(), 303)
  })

  test('buyers form: a member named __proto__/constructor/prototype, bracketed or encoded → 400 page; in a value it passes', async ({
    assert,
    client,
  }) => {
    const { listing } = world
    const who = visitor()
    const path = `/autos/${listing.slug}`
    await openForm(client, path, who)
    const { csrf } = await openForm(client, path, who)
    const form = (extra: string) =>
      `${new URLSearchParams({ ...formFields(), _csrf: csrf }).toString()}&${extra}`
    const post = (body: string) =>
      client
        .post(`${path}/consultas`)
        .header('User-Agent', who.userAgent)
        .header('X-Forwarded-For', who.ip)
        .header('Cookie', who.cookie!)
        .form(body as any)
        .redirects(0)
    // The form parser drops all but the last of these silently (issue 33 follow-up item 4).
    for (const extra of [
      '__proto__=1',
      '__proto__[x]=1',
      'constructor=1',
      'constructor[prototype][x]=1',
      'Nombre[__proto__]=1',
      'Nombre.constructor=1',
      '%5F%5Fproto%5F%5F=1',
      'Nombre%5B__proto__%5D=1',
      'prototype=1',
    ]) {
      const bad = await post(form(extra))
      assert.equal(bad.status(), 400, extra)
      assert.match(bad.header('content-type')!, /^text\/html/)
      assert.include(bad.text(), 'No pudimos procesar el pedido')
    }
    // The names only as values, or inside a longer name: an ordinary inquiry.
    const good = await post(form('Sitio=__proto__&Comentario2=constructor&x__proto__y=1'))
    assert.equal(good.status(), 303, good.text())
  })
})

test.group('Input gate: ids beyond their column', (group) => {
  let token: string
  let adminMail: string
  group.setup(async () => {
    await seedCatalog()
    ;({ token, adminMail } = await dealerWorld())
  })

  test('path ids beyond int4 → 404; the largest int4 → 404 too', async ({ assert }) => {
    for (const path of [
      '/v3/marcas/99999999999999999999',
      '/v3/marcas/2147483648',
      '/v3/modelos/2147483648',
      '/v3/versiones/9223372036854775808',
      `/v3/sucursales/${adminMail}/2147483648`,
      '/v3/regiones/2147483648',
      '/v3/ciudades/2147483648',
    ]) {
      assertProblem(assert, await send(path, { token }), 404)
    }
    for (const path of [
      '/v3/marcas/2147483647',
      '/v3/modelos/2147483647',
      `/v3/sucursales/${adminMail}/2147483647`,
    ]) {
      assertProblem(assert, await send(path, { token }), 404)
    }
  })

  test('buyers model page: an id beyond int4 → 404, never a 500 page', async ({ assert }) => {
    for (const path of [
      '/modelos/2147483648',
      '/modelos/99999999999999999999',
      '/modelos/2147483647',
    ]) {
      const answer = await send(path)
      assert.equal(answer.status, 404, path)
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/)
    }
  })

  test('numbers beyond range in queries and bodies → 400', async ({ assert }) => {
    for (const path of [
      '/v3/modelos?marca=2147483648',
      '/v3/versiones?modelo=99999999999999999999',
      '/v3/publicaciones/' + adminMail + '?pagina=1e400',
    ]) {
      const answer = await send(path, { token })
      assertProblem(assert, answer, 400)
    }
    const body = JSON.stringify(listingBody()).replace(/"Kilometraje":0/, '"Kilometraje":1e400')
    const answer = await send(`/v3/publicaciones/${adminMail}`, json(body, token))
    assertProblem(assert, answer, 400)
    assertErrorKey(assert, answer, 'Kilometraje')
  })
})

test.group('Input gate: malformed requests are problem documents', (group) => {
  let token: string
  group.setup(async () => {
    token = (await dealerWorld()).token
  })

  test('malformed percent-encoding in a path → 400 problem with X-Request-Id', async ({
    assert,
  }) => {
    for (const target of [
      '/v3/marcas/%C3%28',
      '/v3/marcas/%FF',
      '/v3/marcas/%',
      '/autos/%E0%A4%A',
      '/v3/publicaciones/a%ED%A0%80@b.c/x',
    ]) {
      const answer = await rawTarget(target, { Authorization: `Bearer ${token}` })
      const body = assertProblem(assert, answer, 400)
      assert.isString(body.Detail)
    }
  })

  test('a path or query whose bytes are not UTF-8 → 400 whose Errors name them, like NUL', async ({
    assert,
  }) => {
    const mail = (await dealerWorld()).adminMail
    for (const [target, keys] of [
      [`/v3/publicaciones/${mail}/%C3%28%FF`, ['_path.externalid']],
      ['/v3/publicaciones/a%FF@b.c/X1', ['_path.adminmail']],
      [`/v3/publicaciones/${mail}/%FF?pagina=%C3%28`, ['_path.externalid', 'pagina']],
      ['/v3/marcas/%C3%28', ['_path.id']],
      // A numeric matcher (the buyers' model page) still names its parameter.
      ['/modelos/%FF', ['_path.id']],
      // A literal segment is no parameter: the path as a whole.
      ['/v3/marcas%FF', ['_path']],
      // Only the query is bad: the input gate names it.
      ['/v3/marcas?q=%C3%28%FF', ['q']],
    ] as const) {
      const answer = await rawTarget(target, { Authorization: `Bearer ${token}` })
      assertProblem(assert, answer, 400)
      assert.sameMembers(Object.keys(answer.body.Errors ?? {}), [...keys], target)
    }
    // Valid escapes in the same place route as usual: an unknown listing is a 404.
    const valid = await rawTarget(`/v3/publicaciones/${mail}/X%31%32`, {
      Authorization: `Bearer ${token}`,
    })
    assertProblem(assert, valid, 404)
  })

  test('valid percent-encoding still routes: %40 and an accent in a path', async ({ assert }) => {
    const answer = await rawTarget('/v3/marcas?q=Citro%C3%ABn', {
      Authorization: `Bearer ${token}`,
    })
    assert.equal(answer.status, 200)
  })

  test('requests Node itself refuses → problem documents', async ({ assert }) => {
    const text = await rawSocket('GET /v3 HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n')
    assert.match(text, /^HTTP\/1\.1 400/)
    assert.match(text, /application\/problem\+json/i)
    assert.match(text, /X-Request-Id: \S+/i)
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))
    assert.equal(body.Status, 400)
    const huge = await rawSocket(
      `GET /v3 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
    )
    assert.match(huge, /^HTTP\/1\.1 431/)
    assert.match(huge, /application\/problem\+json/i)
  })

  test('a JSON body that is a scalar → 400 problem in Spanish; an object passes', async ({
    assert,
  }) => {
    for (const scalar of ['"hola"', 'null', '1', 'true']) {
      const answer = await send('/v3/agencias', json(scalar, token))
      const body = assertProblem(assert, answer, 400)
      assert.match(body.Detail, /objeto/)
    }
    const answer = await send(
      '/v3/agencias',
      json({ AdminMail: uniqueEmail(), NombreComercial: 'Agencia Gate' }, token)
    )
    assert.equal(answer.status, 202, answer.text)
  })

  test('Content-Encoding: broken gzip → 400, unknown → 415, real gzip passes', async ({
    assert,
  }) => {
    const body = JSON.stringify({ AdminMail: uniqueEmail(), NombreComercial: 'Agencia Gzip' })
    let answer = await send('/v3/agencias', {
      ...json(body, token),
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    })
    assertProblem(assert, answer, 400)
    answer = await send('/v3/agencias', {
      ...json(body, token),
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'zstd-ish' },
    })
    assertProblem(assert, answer, 415)
    assert.include(answer.headers.get('accept-encoding') ?? '', 'gzip')
    answer = await send('/v3/agencias', {
      method: 'POST',
      token,
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(body),
    })
    assert.equal(answer.status, 202, answer.text)
  })

  test('Vary: Accept and X-Request-Id on 404, 401, 405 and successes', async ({ assert }) => {
    for (const answer of [
      await send('/nope'),
      await send('/v3'),
      await send('/v3/nada', { token }),
      await send('/v3', { token }),
      await send('/v3/agencias', { method: 'DELETE', token }),
    ]) {
      assert.include(answer.headers.get('vary') ?? '', 'Accept', String(answer.status))
      assert.isString(answer.headers.get('x-request-id'))
    }
  })
})

test.group('Input gate: e-mail addresses', (group) => {
  group.setup(freshWorld)

  test('every accepted address round-trips through its own Location', async ({ assert }) => {
    const { token, adminMail } = world
    const n = Date.now().toString(36)
    for (const email of [`o'b+${n}&y={a}|b~^$!*@s-d.example.com`, `Ana.P${n}@Example.COM.ar`]) {
      const added = await send(
        `/v3/operadores/${adminMail}`,
        json(
          { Email: email, Nombre: 'Ana', Apellido: 'Pérez', Telefonos: ['011 4555-0000'] },
          token
        )
      )
      assert.equal(added.status, 201, added.text)
      const location = added.headers.get('location')!
      const read = await send(location.replace(/^https?:\/\/[^/]+/, ''), { token })
      assert.equal(read.status, 200, `${location} ${read.text}`)
      const invited = await send(
        '/v3/agencias',
        json({ AdminMail: `inv.${email}`, NombreComercial: 'Agencia Ida y Vuelta' }, token)
      )
      assert.equal(invited.status, 202, invited.text)
      const status = await send(invited.headers.get('location')!.replace(/^https?:\/\/[^/]+/, ''), {
        token,
      })
      assert.equal(status.status, 202, status.text)
      assert.equal(status.body.AdminMail.toLowerCase(), `inv.${email}`.toLowerCase())
    }
  })

  test('addresses that cannot round-trip are refused in every e-mail field', async ({ assert }) => {
    const { token, adminMail } = world
    for (const email of [
      'a/b@example.com',
      'a?b@example.com',
      'a#b@example.com',
      'a%41@example.com',
      'a b@example.com',
      'ñandú@example.com',
      'a@exa mple.com',
      'a\u0001b@example.com',
      'a@example',
      '.a@example.com',
    ]) {
      const operator = await send(
        `/v3/operadores/${adminMail}`,
        json({ Email: email, Nombre: 'Ana', Apellido: 'Pérez' }, token)
      )
      assertProblem(assert, operator, 400)
      assertErrorKey(assert, operator, 'Email')
      const agency = await send(
        '/v3/agencias',
        json({ AdminMail: email, NombreComercial: 'Agencia' }, token)
      )
      assertProblem(assert, agency, 400)
      assertErrorKey(assert, agency, 'AdminMail')
    }
    const path = await send('/v3/agencias/a%2Fb@example.com', { token })
    assertProblem(assert, path, 400)
  })
})

test.group('Input gate: bounded JSON bodies (docs/design.md §25)', (group) => {
  group.setup(async () => {
    await seedCatalog()
    await freshWorld()
  })

  /** A listing creation whose body text is `body` (so member names stay as sent). */
  const create = (body: string) =>
    send(`/v3/publicaciones/${world.adminMail}`, {
      method: 'POST',
      token: world.token,
      headers: { 'content-type': 'application/json' },
      body,
    })
  /** A valid creation body's text with `extra` (members text) added. */
  const withMembers = (extra: string) => `${JSON.stringify(listingBody()).slice(0, -1)},${extra}}`
  const nested = (k: number) => '{"a":'.repeat(k - 1) + '{}' + '}'.repeat(k - 1)
  const members = (count: number) => Array.from({ length: count }, (_, i) => `"u${i}":1`).join(',')

  test('nesting: 32 levels reach the member check, 33 are refused as too deep', async ({
    assert,
  }) => {
    const ok = await create(withMembers(`"Zzz":${nested(31)}`))
    assert.equal(ok.status, 400)
    assert.deepEqual(Object.keys(ok.body.Errors), ['Zzz'])
    const deep = await create(withMembers(`"Zzz":${nested(32)}`))
    assert.equal(deep.status, 400)
    assert.deepEqual(deep.body.Errors, { _: ['El cuerpo tiene más de 32 niveles de anidamiento.'] })
  })

  test('members: an object of 200 is looked at member by member, 201 is refused whole', async ({
    assert,
  }) => {
    // A creation body has 9 members here: 191 more make 200.
    const ok = await create(withMembers(members(191)))
    assert.equal(ok.status, 400)
    assert.include(Object.keys(ok.body.Errors), 'u0')
    const wide = await create(withMembers(members(192)))
    assert.equal(wide.status, 400)
    assert.deepEqual(wide.body.Errors, { _: ['El cuerpo tiene más de 200 campos.'] })
    const nestedWide = await create(withMembers(`"Locacion":{${members(201)}}`))
    assert.equal(nestedWide.status, 400)
    assert.deepEqual(nestedWide.body.Errors, {
      Locacion: ['El objeto Locacion tiene más de 200 campos.'],
    })
  })

  test('Errors: 50 keys are listed; 51 → 50 and `_omitidos` saying how many more', async ({
    assert,
  }) => {
    const fifty = await create(withMembers(members(50)))
    assert.equal(fifty.status, 400)
    assert.lengthOf(Object.keys(fifty.body.Errors), 50)
    assert.notProperty(fifty.body.Errors, '_omitidos')
    const more = await create(withMembers(members(51)))
    assert.lengthOf(Object.keys(more.body.Errors), 51)
    assert.deepEqual(more.body.Errors._omitidos, ['Hay 1 campo más con errores que no se lista.'])
    const many = await create(withMembers(members(191)))
    assert.deepEqual(many.body.Errors._omitidos, [
      'Hay 141 campos más con errores que no se listan.',
    ])
    // The validator's alike: 50 custom data entries with two faults each.
    const entries = Array.from({ length: 50 }, () => ({ Nombre: '', Valor: 'v'.repeat(201) }))
    const invalid = await create(JSON.stringify(listingBody({ DatosTecnicosCustom: entries })))
    assert.equal(invalid.status, 400)
    assert.lengthOf(Object.keys(invalid.body.Errors), 51)
    assert.deepEqual(invalid.body.Errors._omitidos, [
      'Hay 50 campos más con errores que no se listan.',
    ])
    // The gate's own errors alike: 60 NULs in 60 members.
    const nuls = Array.from({ length: 60 }, (_, i) => `"n${i}":"a\\u0000b"`).join(',')
    const dirty = await create(withMembers(nuls))
    assert.equal(dirty.status, 400)
    assert.lengthOf(Object.keys(dirty.body.Errors), 51)
    assert.deepEqual(dirty.body.Errors._omitidos, [
      'Hay 10 campos más con errores que no se listan.',
    ])
  })
})
