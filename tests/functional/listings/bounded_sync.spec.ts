/*
 * A stock sync's body read within bounds (docs/design.md §25): nesting, members
 * per object, list items, string and cell lengths are refused at the token or
 * cell that crosses the line (each limit on both sides of its edge); a CSV
 * header with more columns than the sync knows is refused at once; forbidden
 * member names in a row make that row Rechazada keyed by the name; a row's
 * Errors list at most 50 keys and count the rest; the encoding of a CSV does
 * not depend on how its bytes were split on the wire.
 */
import { test } from '@japa/runner'
import { request as httpRequest } from 'node:http'
import app from '@adonisjs/core/services/app'
import JobRunner from '#core/jobs/runner'
import { baseUrl, raw } from '#tests/helpers/http'
import { CSV_COLUMNS } from '#listings/validators/inventory'
import { listingBody, setup, uniqueExternalId } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

const syncs = (ctx: Ctx) => `${ctx.base}/sincronizaciones`

async function postJson(ctx: Ctx, body: string) {
  const response = await raw(syncs(ctx), {
    method: 'POST',
    headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'application/json' },
    body,
  })
  return { status: response.status, body: (await response.json()) as any }
}

async function postCsv(ctx: Ctx, csv: string | Buffer) {
  const response = await raw(`${syncs(ctx)}?modo=Parcial`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'text/csv' },
    body: csv,
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** A Parcial sync body whose rows are JSON texts (so `__proto__` stays a member name). */
const inventory = (...rows: string[]) => `{"Modo":"Parcial","Publicaciones":[${rows.join(',')}]}`

/** A valid row's JSON text with `extra` (JSON members text) added. */
function row(extra = '', externalId = uniqueExternalId()) {
  const text = JSON.stringify(listingBody({ ExternalId: externalId }))
  return extra ? `${text.slice(0, -1)},${extra}}` : text
}

/** `k` levels of objects: `{"a":{"a":…{}}}`. */
const nested = (k: number) => '{"a":'.repeat(k - 1) + '{}' + '}'.repeat(k - 1)

const members = (count: number, prefix = 'u') =>
  Array.from({ length: count }, (_, i) => `"${prefix}${i}":1`).join(',')

/** Runs the sync's job here and returns its results' Errors, by ExternalId. */
async function rowErrors(ctx: Ctx, client: any, id: number) {
  const runner = await app.container.make(JobRunner)
  await runner.runNow('stock.sync', { syncId: id })
  const listed = await client.get(`${syncs(ctx)}/${id}/resultados`).bearerToken(ctx.token)
  listed.assertStatus(200)
  return new Map<string, any>(listed.body()._entries.map((entry: any) => [entry.ExternalId, entry]))
}

test.group('Stock sync: bounded JSON', () => {
  test('nesting: 32 levels are read, 33 are a 400 before anything is built', async ({ assert }) => {
    const ctx = await setup()
    // The body is level 1, Publicaciones 2, the row 3.
    const ok = await postJson(ctx, inventory(row(`"Zzz":${nested(29)}`)))
    assert.equal(ok.status, 202, JSON.stringify(ok.body))
    const deep = await postJson(ctx, inventory(row(`"Zzz":${nested(30)}`)))
    assert.equal(deep.status, 400)
    assert.match(deep.body.Errors._[0], /más de 32 niveles/)
    // A deep unknown top-level member alike.
    const top = await postJson(ctx, `{"Modo":"Parcial","Zzz":${nested(32)}}`)
    assert.equal(top.status, 400)
    assert.match(top.body.Errors._[0], /más de 32 niveles/)
  })

  test('members: an object of 200 is read, 201 is a 400 keyed by its path', async ({ assert }) => {
    const ctx = await setup()
    // A listing row has 9 members here: 191 more make 200.
    const ok = await postJson(ctx, inventory(row(members(191))))
    assert.equal(ok.status, 202, JSON.stringify(ok.body))
    const wide = await postJson(ctx, inventory(row(members(192))))
    assert.equal(wide.status, 400)
    assert.deepEqual(Object.keys(wide.body.Errors), ['Publicaciones.0'])
    assert.match(wide.body.Errors['Publicaciones.0'][0], /más de 200 campos/)
    // The body itself alike (its 201st member).
    const body = `{"Modo":"Parcial","Publicaciones":[${row()}],${members(199, 'z')}}`
    const top = await postJson(ctx, body)
    assert.equal(top.status, 400)
    assert.match(top.body.Errors._[0], /El cuerpo tiene más de 200 campos/)
  })

  test('lists in a row: 200 items are read, 201 are a 400; strings up to 8 192 characters', async ({
    assert,
  }) => {
    const ctx = await setup()
    const photos = (n: number) =>
      `"Fotos":${JSON.stringify(Array.from({ length: n }, (_, i) => `https://example.com/${i}.jpg`))}`
    assert.equal((await postJson(ctx, inventory(row(photos(200))))).status, 202)
    const many = await postJson(ctx, inventory(row(photos(201))))
    assert.equal(many.status, 400)
    assert.deepEqual(Object.keys(many.body.Errors), ['Publicaciones.0.Fotos'])

    const description = (n: number) => `"Descripcion":"${'x'.repeat(n)}"`
    assert.equal((await postJson(ctx, inventory(row(description(8192))))).status, 202)
    const long = await postJson(ctx, inventory(row(description(8193))))
    assert.equal(long.status, 400)
    assert.deepEqual(Object.keys(long.body.Errors), ['Publicaciones.0.Descripcion'])
    assert.match(long.body.Errors['Publicaciones.0.Descripcion'][0], /8192 caracteres/)
  })

  test('__proto__, constructor and prototype in rows: each row Rechazada keyed by the name; at the top level a 400', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const ids = ['proto', 'ctor', 'nested', 'clean'].map((name) => `${name}-${uniqueExternalId()}`)
    const posted = await postJson(
      ctx,
      inventory(
        row('"__proto__":{"x":1}', ids[0]),
        row('"constructor":1', ids[1]),
        `${JSON.stringify(listingBody({ ExternalId: ids[2] })).replace('"Importe":32500', '"Importe":32500,"prototype":{}')}`,
        row('', ids[3])
      )
    )
    assert.equal(posted.status, 202, JSON.stringify(posted.body))
    const results = await rowErrors(ctx, client, posted.body.Id)
    assert.equal(results.get(ids[0]).Resultado, 'Rechazada')
    assert.deepEqual(Object.keys(results.get(ids[0]).Errors), ['__proto__'])
    // Read as an own key: `.__proto__` would be the accessor.
    assert.match(
      Object.getOwnPropertyDescriptor(results.get(ids[0]).Errors, '__proto__')!.value[0],
      /no se admite/
    )
    assert.deepEqual(Object.keys(results.get(ids[1]).Errors), ['constructor'])
    assert.deepEqual(Object.keys(results.get(ids[2]).Errors), ['Precio.prototype'])
    assert.equal(results.get(ids[3]).Resultado, 'Creada')

    const top = await postJson(ctx, `{"Modo":"Parcial","__proto__":{},"Publicaciones":[${row()}]}`)
    assert.equal(top.status, 400)
    assert.deepEqual(Object.keys(top.body.Errors), ['__proto__'])
  })

  test("a row's Errors: 50 keys listed; 51 → 50 and `_omitidos` counting the rest", async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const posted = await postJson(
      ctx,
      inventory(
        row(members(50), 'fifty-1'),
        row(members(51), 'fifty-one-1'),
        row(members(191), 'many-1')
      )
    )
    assert.equal(posted.status, 202, JSON.stringify(posted.body))
    const results = await rowErrors(ctx, client, posted.body.Id)
    const fifty = Object.keys(results.get('fifty-1').Errors)
    assert.lengthOf(fifty, 50)
    assert.notInclude(fifty, '_omitidos')
    const capped = results.get('fifty-one-1').Errors
    assert.lengthOf(Object.keys(capped), 51)
    assert.deepEqual(capped._omitidos, ['Hay 1 campo más con errores que no se lista.'])
    assert.deepEqual(results.get('many-1').Errors._omitidos, [
      'Hay 141 campos más con errores que no se listan.',
    ])
  })
})

test.group('Stock sync: bounded CSV', () => {
  const line = (externalId: string, description = 'Unidad 0 km') =>
    `${externalId},Toyota,Corolla,2.0 XEI CVT,${new Date().getFullYear()},0,"${description}",USD,32500`
  const header =
    'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Descripcion,Precio.Moneda,Precio.Importe'

  test('a header of every known column is read; one column more is refused at once, naming the count', async ({
    assert,
  }) => {
    const ctx = await setup()
    const all = CSV_COLUMNS.join(',')
    const cells = ','.repeat(CSV_COLUMNS.length - 1)
    const ok = await postCsv(ctx, `${all}\n${uniqueExternalId()}${cells}\n`)
    assert.equal(ok.status, 202, JSON.stringify(ok.body))
    const wide = await postCsv(ctx, `${all},Zzz\n${uniqueExternalId()}${cells},\n`)
    assert.equal(wide.status, 400)
    assert.deepEqual(wide.body.Errors['Linea.1'], [
      `El encabezado tiene ${CSV_COLUMNS.length + 1} columnas; una sincronización conoce ${CSV_COLUMNS.length}.`,
    ])
    // Repeated columns are named once each.
    const repeated = await postCsv(ctx, `${header},Marca,Marca\n${line(uniqueExternalId())},a,b\n`)
    assert.equal(repeated.status, 400)
    assert.deepEqual(repeated.body.Errors['Linea.1'], ['La columna «Marca» está repetida.'])
  })

  test('__proto__, constructor, prototype as CSV columns: 400 naming them', async ({ assert }) => {
    const ctx = await setup()
    for (const name of ['__proto__', 'constructor', 'Precio.prototype']) {
      const refused = await postCsv(ctx, `${header},${name}\n${line(uniqueExternalId())},x\n`)
      assert.equal(refused.status, 400, name)
      assert.include(refused.body.Errors['Linea.1'][0], `«${name}»`)
    }
  })

  test('cells: 8 192 characters are read, 8 193 are a 400 keyed by the line', async ({
    assert,
  }) => {
    const ctx = await setup()
    const ok = await postCsv(ctx, `${header}\n${line(uniqueExternalId(), 'x'.repeat(8192))}\n`)
    assert.equal(ok.status, 202, JSON.stringify(ok.body))
    const long = await postCsv(ctx, `${header}\n${line(uniqueExternalId(), 'x'.repeat(8193))}\n`)
    assert.equal(long.status, 400)
    assert.deepEqual(long.body.Errors['Linea.2'], [
      'La columna Descripcion supera los 8192 caracteres.',
    ])
  })

  test('the same Windows-1252 CSV split anywhere on the wire: the same 202', async ({ assert }) => {
    const ctx = await setup()
    const bytes = Buffer.from(
      `${header}\n${line('split-1252-1', 'Año impecable, único dueño')}\n`,
      'latin1'
    )
    const first = bytes.findIndex((byte) => byte >= 0x80)
    const answers = new Set<string>()
    for (const cut of [0, first - 1, first, first + 1, first + 2, bytes.length - 1]) {
      const sent = await postInTwo(ctx, bytes, cut)
      answers.add(`${sent.status}`)
      assert.equal(sent.status, 202, `cut at ${cut}: ${sent.text}`)
    }
    assert.deepEqual([...answers], ['202'])
  })
})

/** Posts `bytes` as a CSV in two writes, `cut` bytes first, with a pause between (two reads on the server). */
function postInTwo(ctx: Ctx, bytes: Buffer, cut: number) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const url = new URL(`${syncs(ctx)}?modo=Parcial`, baseUrl())
    const request = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'authorization': `Bearer ${ctx.token}`,
          'content-type': 'text/csv',
          'content-length': bytes.length,
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode!, text }))
      }
    )
    request.on('error', reject)
    request.setNoDelay(true)
    request.write(bytes.subarray(0, cut))
    setTimeout(() => request.end(bytes.subarray(cut)), 100)
  })
}
