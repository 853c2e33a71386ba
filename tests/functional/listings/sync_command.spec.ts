/*
 * `ace stock:sync ADMINMAIL FILE --app ID` (docs/design.md §15, the admin
 * path): a dealer's file run as an operator would run it, in its own process,
 * against the suite's database; what it did is then read over the API.
 */
import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { createListing } from '#tests/helpers/listings'
import { listingBody, setup } from './support.js'

const run = promisify(execFile)
const DIR = app.makePath('tmp/sync_command')

type Ran = { code: number; stdout: string; stderr: string }

/** Runs `node ace stock:sync …`; a non-zero exit is returned, not thrown. */
async function stockSync(...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['ace', 'stock:sync', ...args], {
      cwd: app.makePath(),
      env: process.env,
    })
    return { code: 0, stdout, stderr }
  } catch (error: any) {
    if (typeof error.code !== 'number') throw error
    return { code: error.code, stdout: error.stdout, stderr: error.stderr }
  }
}

let files = 0
async function file(extension: string, content: string | Buffer) {
  await mkdir(DIR, { recursive: true })
  files += 1
  const path = `${DIR}/${process.pid}-${files}.${extension}`
  await writeFile(path, content)
  return path
}

/** Everything of the agency's listings, one text: equal before and after when nothing was written. */
async function listingsChecksum(agencyId: number) {
  const { rows } = await db.rawQuery(
    `select count(*)::int as n, md5(coalesce(string_agg(l::text, '|' order by l.id), '')) as sum
     from listings l where agency_id = ?`,
    [agencyId]
  )
  return rows[0] as { n: number; sum: string }
}

const CSV_HEADER =
  'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Color,Descripcion,Precio.Moneda,Precio.Importe'

function csvLine(row: ReturnType<typeof listingBody>) {
  return [
    row.ExternalId,
    row.Marca,
    row.Modelo,
    row.Version,
    row.VersionYear,
    row.Kilometraje,
    row.Color,
    `"${String(row.Descripcion).replaceAll('"', '""')}"`,
    row.Precio.Moneda,
    row.Precio.Importe,
  ].join(',')
}

test.group('ace stock:sync', (group) => {
  group.each.timeout(120_000)

  test('a JSON file (the POST body): created, archived by Bajas, rejected; --json prints the Sincronizacion', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const kept = await createListing(ctx.app, ctx.fixture)
    const rows = [listingBody(), listingBody(), listingBody({ Kilometraje: 'mucho' })]
    const path = await file(
      'json',
      JSON.stringify({ Publicaciones: rows, Bajas: [kept.externalId] }, null, 2)
    )

    const ran = await stockSync(ctx.adminMail, path, '--app', String(ctx.app.id), '--json')
    assert.equal(ran.code, 0, ran.stderr)
    const sync = JSON.parse(ran.stdout)
    assert.equal(ran.stdout.trim(), JSON.stringify(sync), 'stdout is exactly one JSON document')
    assert.include(sync, { Modo: 'Parcial', Simulada: false, Estado: 'Terminada', Total: 4 })
    assert.equal(sync.Procesadas, 4)
    assert.deepEqual(sync.Resumen, {
      Creadas: 2,
      Actualizadas: 0,
      SinCambios: 0,
      Archivadas: 1,
      Rechazadas: 1,
    })

    // What the API shows of it: the same sync, its rows, the listings.
    const shown = await client.get(`${ctx.base}/sincronizaciones/${sync.Id}`).bearerToken(ctx.token)
    shown.assertStatus(200)
    assert.deepEqual(shown.body().Resumen, sync.Resumen)
    const rejected = await client
      .get(`${ctx.base}/sincronizaciones/${sync.Id}/resultados?resultado=Rechazada`)
      .bearerToken(ctx.token)
    assert.equal(rejected.body()._entries[0].ExternalId, rows[2].ExternalId)
    assert.property(rejected.body()._entries[0].Errors, 'Kilometraje')
    for (const row of rows.slice(0, 2)) {
      ;(await client.get(ctx.href(row.ExternalId)).bearerToken(ctx.token)).assertStatus(200)
    }
    const archived = await client.get(ctx.href(kept.externalId)).bearerToken(ctx.token)
    assert.equal(archived.body().EstadoActual, 'Archivada')
  })

  test('a JSON array of rows, then the same file again: all SinCambios; the summary names the counts', async ({
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const path = await file('json', JSON.stringify([listingBody(), listingBody()]))
    const first = await stockSync(ctx.adminMail, path, '--app', String(ctx.app.id))
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, /Parcial\): Terminada/)
    assert.match(first.stdout, /2 created, 0 updated, 0 unchanged, 0 archived, 0 rejected of 2/)

    const before = await listingsChecksum(ctx.fixture.agency.id)
    const again = await stockSync(ctx.adminMail, path, '--app', String(ctx.app.id))
    assert.equal(again.code, 0, again.stderr)
    assert.match(again.stdout, /0 created, 0 updated, 2 unchanged, 0 archived, 0 rejected of 2/)
    assert.deepEqual(await listingsChecksum(ctx.fixture.agency.id), before, 'no write at all')
  })

  test('a CSV file, UTF-8 with a BOM and Windows-1252: created, then updated; rejected rows are listed', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const rows = [listingBody({ Descripcion: 'Único dueño, "impecable"' }), listingBody()]
    const utf8 = await file(
      'csv',
      '\ufeff' + [CSV_HEADER, ...rows.map(csvLine), 'SIN-MARCA-1,,,,,,,,,'].join('\r\n') + '\r\n'
    )
    const first = await stockSync(ctx.adminMail, utf8, '--app', String(ctx.app.id))
    assert.equal(first.code, 0, first.stderr)
    assert.match(first.stdout, /2 created, 0 updated, 0 unchanged, 0 archived, 1 rejected of 3/)
    assert.match(first.stdout, /row 3 SIN-MARCA-1: .*Marca/)
    const read = await client.get(ctx.href(rows[0].ExternalId)).bearerToken(ctx.token)
    assert.equal(read.body().Descripcion, 'Único dueño, "impecable"')

    const changed = { ...rows[0], Descripcion: 'Señado: ¿reservado?' }
    const latin = await file(
      'CSV',
      Buffer.from([CSV_HEADER, csvLine(changed), csvLine(rows[1])].join('\n'), 'latin1')
    )
    const second = await stockSync(ctx.adminMail, latin, '--app', String(ctx.app.id), '--json')
    assert.equal(second.code, 0, second.stderr)
    assert.deepEqual(JSON.parse(second.stdout).Resumen, {
      Creadas: 0,
      Actualizadas: 1,
      SinCambios: 1,
      Archivadas: 0,
      Rechazadas: 0,
    })
    const reread = await client.get(ctx.href(rows[0].ExternalId)).bearerToken(ctx.token)
    assert.equal(reread.body().Descripcion, 'Señado: ¿reservado?')
  })

  test('--completa archiving more than 20 % and more than 5 is refused naming --confirmar-bajas; with it, done', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const listings = []
    for (let index = 0; index < 10; index++)
      listings.push(await createListing(ctx.app, ctx.fixture))
    // 3 of the 10 kept: 7 archived (70 %, more than 5).
    const kept = listings
      .slice(0, 3)
      .map((listing) => listingBody({ ExternalId: listing.externalId }))
    const path = await file('json', JSON.stringify(kept))
    const before = await listingsChecksum(ctx.fixture.agency.id)

    const refused = await stockSync(ctx.adminMail, path, '--app', String(ctx.app.id), '--completa')
    assert.equal(refused.code, 1)
    assert.match(refused.stderr + refused.stdout, /archive 7 of the 10 live listings/)
    assert.match(refused.stderr + refused.stdout, /--confirmar-bajas/)
    const none = await client.get(`${ctx.base}/sincronizaciones`).bearerToken(ctx.token)
    assert.lengthOf(none.body()._entries, 0, 'a refused sync leaves nothing behind')
    assert.deepEqual(await listingsChecksum(ctx.fixture.agency.id), before)

    const confirmed = await stockSync(
      ctx.adminMail,
      path,
      '--app',
      String(ctx.app.id),
      '--completa',
      '--confirmar-bajas',
      '--json'
    )
    assert.equal(confirmed.code, 0, confirmed.stderr)
    const sync = JSON.parse(confirmed.stdout)
    assert.equal(sync.Modo, 'Completa')
    assert.equal(sync.Resumen.Archivadas, 7)
    assert.equal(sync.Resumen.Actualizadas + sync.Resumen.SinCambios, 3)
    const gone = await client.get(ctx.href(listings[9].externalId)).bearerToken(ctx.token)
    assert.equal(gone.body().EstadoActual, 'Archivada')
  })

  test('--simular computes every result and writes nothing but the sync', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const existing = await createListing(ctx.app, ctx.fixture)
    const other = await createListing(ctx.app, ctx.fixture)
    const rows = [
      listingBody({ ExternalId: existing.externalId, Color: 'Rojo' }),
      listingBody(),
      listingBody({ Kilometraje: 'mucho' }),
    ]
    const path = await file('json', JSON.stringify(rows))
    const before = await listingsChecksum(ctx.fixture.agency.id)

    const ran = await stockSync(
      ctx.adminMail,
      path,
      '--app',
      String(ctx.app.id),
      '--completa',
      '--simular'
    )
    assert.equal(ran.code, 0, ran.stderr)
    assert.match(ran.stdout, /Completa, simulated: nothing written\): Terminada/)
    assert.match(ran.stdout, /1 created, 1 updated, 0 unchanged, 1 archived, 1 rejected of 4/)
    assert.deepEqual(await listingsChecksum(ctx.fixture.agency.id), before, 'no listing written')

    const list = await client.get(`${ctx.base}/sincronizaciones`).bearerToken(ctx.token)
    assert.lengthOf(list.body()._entries, 1, 'the sync itself is written')
    assert.isTrue(list.body()._entries[0].Simulada)
    const untouched = await client.get(ctx.href(other.externalId)).bearerToken(ctx.token)
    assert.equal(untouched.body().EstadoActual, 'Activa')
    ;(await client.get(ctx.href(rows[1].ExternalId)).bearerToken(ctx.token)).assertStatus(404)
  })

  test('refusals before any work: a file whose Modo disagrees, a bad or empty file, no file, another app', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 50 } })
    const appId = String(ctx.app.id)
    const disagrees = await file(
      'json',
      JSON.stringify({ Modo: 'Completa', Publicaciones: [listingBody()] })
    )
    const modo = await stockSync(ctx.adminMail, disagrees, '--app', appId)
    assert.equal(modo.code, 1)
    assert.match(
      modo.stderr + modo.stdout,
      /Modo: The file says Modo Completa; .* without --completa/
    )

    const broken = await stockSync(
      ctx.adminMail,
      await file('csv', 'ExternalId,Motor\nA-1,V8\n'),
      '--app',
      appId
    )
    assert.equal(broken.code, 1)
    assert.match(broken.stderr + broken.stdout, /Linea\.1: .*Motor/)

    const empty = await stockSync(
      ctx.adminMail,
      await file('json', ''),
      '--app',
      appId,
      '--completa'
    )
    assert.equal(empty.code, 1)
    assert.match(empty.stderr + empty.stdout, /Publicaciones: /)

    const missing = await stockSync(ctx.adminMail, `${DIR}/no-such-file.json`, '--app', appId)
    assert.equal(missing.code, 1)
    assert.match(missing.stderr + missing.stdout, /Cannot read/)

    const stranger = await setup()
    const path = await file('json', JSON.stringify([listingBody()]))
    const foreign = await stockSync(ctx.adminMail, path, '--app', String(stranger.app.id))
    assert.equal(foreign.code, 1)
    assert.match(foreign.stderr + foreign.stdout, /is linked to app/)

    const list = await client.get(`${ctx.base}/sincronizaciones`).bearerToken(ctx.token)
    assert.lengthOf(list.body()._entries, 0, 'no refusal left a sync behind')
  })
})
