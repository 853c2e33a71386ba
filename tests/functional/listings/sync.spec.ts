/*
 * Stock sync (docs/design.md §15): a whole inventory in one request, diffed
 * against the listings, with a result per row. Against the real database and
 * the real job handler (`runNow`); the fault and concurrency cases are in
 * sync_faults.spec.ts, the admin command in sync_command.spec.ts.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { raw } from '#tests/helpers/http'
import { createCaller } from '#tests/helpers/apps'
import { grantAgency } from '#tests/helpers/agencies'
import { listingBody, setup, thisYear } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

const syncs = (ctx: Ctx) => `${ctx.base}/sincronizaciones`

async function post(client: any, ctx: Ctx, body: object, token = ctx.token) {
  return client.post(syncs(ctx)).bearerToken(token).json(body)
}

async function postCsv(ctx: Ctx, csv: string | Buffer, query = 'modo=Parcial', token = ctx.token) {
  return raw(`${syncs(ctx)}?${query}`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${token}`, 'content-type': 'text/csv' },
    body: csv,
  })
}

async function run(id: number) {
  const runner = await app.container.make(JobRunner)
  await runner.runNow('stock.sync', { syncId: id })
}

/** Posts, runs and returns the finished sync and its results (all pages). */
async function synced(client: any, ctx: Ctx, body: object) {
  const posted = await post(client, ctx, body)
  posted.assertStatus(202)
  await run(posted.body().Id)
  return finished(client, ctx, posted.body().Id)
}

async function finished(client: any, ctx: Ctx, id: number) {
  const shown = await client.get(`${syncs(ctx)}/${id}`).bearerToken(ctx.token)
  shown.assertStatus(200)
  const results: any[] = []
  for (let page = 1; ; page++) {
    const listed = await client
      .get(`${syncs(ctx)}/${id}/resultados`)
      .qs({ pagina: page })
      .bearerToken(ctx.token)
    listed.assertStatus(200)
    results.push(...listed.body()._entries)
    if (!listed.body()._links.next) break
  }
  return { sync: shown.body(), results }
}

const outcomes = (results: any[]) => results.map((result) => result.Resultado)

async function listingRow(externalId: string) {
  return db
    .from('listings')
    .whereRaw('lower(external_id) = lower(?)', [externalId])
    .select('revision', 'state', db.raw('xmin::text as xmin'))
    .first()
}

async function photoJobs(externalId: string) {
  const { rows } = await db.rawQuery(
    `select count(*)::int as n from pgboss.job j join listing_photos p on p.id = (j.data->>'photoId')::int
     join listings l on l.id = p.listing_id where j.name = 'photos.fetch' and l.external_id = ?`,
    [externalId]
  )
  return rows[0].n as number
}

/** A used listing's body with photos (any URL: no worker fetches them here). */
const usedBody = (photos: string[]) => ({
  ...listingBody({ VersionYear: thisYear() - 3, Kilometraje: 45000 }),
  Fotos: photos,
})

test.group('Stock sync: rows and results', () => {
  test('new → Creada as POST creates; same again → SinCambios (no write, same ETag); changed → Actualizada (revision + 1)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const rows = [listingBody(), listingBody(), listingBody()]
    const first = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: rows })
    assert.deepEqual(outcomes(first.results), ['Creada', 'Creada', 'Creada'])
    assert.equal(first.sync.Estado, 'Terminada')
    assert.deepInclude(first.sync, { Total: 3, Procesadas: 3 })
    assert.deepEqual(first.sync.Resumen, {
      Creadas: 3,
      Actualizadas: 0,
      SinCambios: 0,
      Archivadas: 0,
      Rechazadas: 0,
    })
    const shown = await client.get(ctx.href(rows[0].ExternalId)).bearerToken(ctx.token)
    shown.assertStatus(200)
    assert.equal(shown.body().Color, rows[0].Color)
    const before = await listingRow(rows[1].ExternalId)

    const again = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: rows })
    assert.deepEqual(outcomes(again.results), ['SinCambios', 'SinCambios', 'SinCambios'])
    assert.deepEqual(await listingRow(rows[1].ExternalId), before)
    const reread = await client.get(ctx.href(rows[0].ExternalId)).bearerToken(ctx.token)
    assert.equal(reread.header('etag'), shown.header('etag'))

    const changed = [rows[0], { ...rows[1], Precio: { Moneda: 'USD', Importe: 1 } }, rows[2]]
    const third = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: changed })
    assert.deepEqual(outcomes(third.results), ['SinCambios', 'Actualizada', 'SinCambios'])
    assert.equal((await listingRow(rows[1].ExternalId)).revision, before.revision + 1)
    assert.equal(
      third.results[1]._links.publicacion.href,
      `/v3/publicaciones/${ctx.adminMail}/${rows[1].ExternalId}`
    )
  })

  test("a row's own errors: Rechazada with the Errors the single POST gives, the other rows go on", async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const bad = [
      listingBody({ Kilometraje: 'mucho' }),
      listingBody({ Marca: 'Marca que no existe' }),
      listingBody({ VersionYear: thisYear() - 5 }), // 0 km for a 5-year-old car
      listingBody({ Colour: 'Rojo' }), // not a member of the body
    ]
    const good = listingBody()
    const { results, sync } = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [...bad, good],
    })
    assert.deepEqual(outcomes(results), [
      'Rechazada',
      'Rechazada',
      'Rechazada',
      'Rechazada',
      'Creada',
    ])
    assert.equal(sync.Resumen.Rechazadas, 4)
    for (const [index, body] of bad.entries()) {
      const single = await client.post(ctx.base).bearerToken(ctx.token).json(body)
      single.assertStatus(400)
      assert.deepEqual(results[index].Errors, single.body().Errors, JSON.stringify(body))
      assert.deepEqual(results[index]._links, {})
    }
    assert.isNull(results[4].Errors)

    // Stored in domain words, worded only when read (docs/design.md §23): no wire text in the row.
    const { rows: stored } = await db.rawQuery(
      `select rejection, errors from listing_sync_rows where sync_id = ? order by position`,
      [sync.Id]
    )
    assert.deepEqual(
      stored.map((row: any) => row.rejection?.reason ?? null),
      ['invalid_body', 'invalid', 'invalid', 'unknown_members', null]
    )
    assert.deepEqual(stored[0].rejection.details, [
      { field: 'Kilometraje', rule: 'number', message: results[0].Errors.Kilometraje[0] },
    ])
    assert.deepEqual(stored[3].rejection.details, [{ path: 'Colour' }])
    assert.deepEqual(
      stored.map((row: any) => row.errors),
      [null, null, null, null, null]
    )
  })

  test('a row rejected before rejections were stored in domain words shows the Errors it kept', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { sync } = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [listingBody({ Kilometraje: 'mucho' }), listingBody()],
    })
    // As a row recorded before migration 0304 holds it: the wire text, no rejection.
    const kept = { Kilometraje: ['El texto que se guardó entonces.'] }
    await db
      .from('listing_sync_rows')
      .where({ sync_id: sync.Id, position: 1 })
      .update({ rejection: null, errors: JSON.stringify(kept) })
    const { results } = await finished(client, ctx, sync.Id)
    assert.deepEqual(outcomes(results), ['Rechazada', 'Creada'])
    assert.deepEqual(results[0].Errors, kept)
    assert.isNull(results[1].Errors)
  })

  test('two rows with one ExternalId (any case) are both Rechazada; archived listings are never revived', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const archived = listingBody()
    await client
      .post(ctx.base)
      .bearerToken(ctx.token)
      .json(archived)
      .then((r: any) => r.assertStatus(201))
    await client
      .delete(ctx.href(archived.ExternalId))
      .bearerToken(ctx.token)
      .then((r: any) => r.assertStatus(200))
    const twin = listingBody()
    const { results } = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [twin, { ...twin, ExternalId: twin.ExternalId.toUpperCase() }, archived],
    })
    assert.deepEqual(outcomes(results), ['Rechazada', 'Rechazada', 'Rechazada'])
    assert.property(results[0].Errors, 'ExternalId')
    assert.isNull(await listingRow(twin.ExternalId))
    const put = await client
      .put(ctx.href(archived.ExternalId))
      .bearerToken(ctx.token)
      .json({ Color: 'Rojo' })
    put.assertStatus(409)
    assert.deepEqual(results[2].Errors, put.body().Errors)
    assert.equal((await listingRow(archived.ExternalId)).state, 'archived')
  })

  test('photos: only URLs the listing does not have are fetched; the same list again queues nothing', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const body = usedBody(['http://127.0.0.1:9/a.jpg', 'http://127.0.0.1:9/b.jpg'])
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [body] })
    assert.equal(await photoJobs(body.ExternalId), 2)
    const again = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [body] })
    assert.deepEqual(outcomes(again.results), ['SinCambios'])
    assert.equal(await photoJobs(body.ExternalId), 2)
    const more = { ...body, Fotos: [...body.Fotos, 'http://127.0.0.1:9/c.jpg'] }
    const third = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [more] })
    assert.deepEqual(outcomes(third.results), ['Actualizada'])
    // a and b keep their (pending) rows; only c is new. Their jobs were replaced with the rows.
    const { rows } = await db.rawQuery(
      `select p.source_url from listing_photos p join listings l on l.id = p.listing_id
       where l.external_id = ? order by p.position`,
      [body.ExternalId]
    )
    assert.deepEqual(
      rows.map((row: any) => row.source_url),
      more.Fotos
    )
  })
})

test.group('Stock sync: modes and guards', () => {
  test('Parcial touches only its rows and archives its Bajas; an unknown Baja is Rechazada', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const kept = listingBody()
    const gone = listingBody()
    const other = listingBody()
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [kept, gone, other] })
    const { results, sync } = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [kept],
      Bajas: [gone.ExternalId, 'no-existe-1'],
    })
    assert.deepEqual(
      results.map((result) => [result.ExternalId, result.Resultado]),
      [
        [kept.ExternalId, 'SinCambios'],
        [gone.ExternalId, 'Archivada'],
        ['no-existe-1', 'Rechazada'],
      ]
    )
    assert.equal(sync.Total, 3)
    assert.equal((await listingRow(gone.ExternalId)).state, 'archived')
    assert.equal((await listingRow(other.ExternalId)).state, 'active')
  })

  test('Completa archives what it leaves out; an empty Completa is 400; Bajas only with Parcial', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const rows = Array.from({ length: 10 }, () => listingBody())
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: rows })
    // 1 of 10 left out: under both thresholds.
    const { results, sync } = await synced(client, ctx, {
      Modo: 'Completa',
      Publicaciones: rows.slice(1),
    })
    assert.equal(sync.Resumen.Archivadas, 1)
    assert.equal(sync.Resumen.SinCambios, 9)
    assert.deepEqual(results.at(-1), {
      ExternalId: rows[0].ExternalId,
      Resultado: 'Archivada',
      Errors: null,
      _links: { publicacion: { href: `/v3/publicaciones/${ctx.adminMail}/${rows[0].ExternalId}` } },
    })

    const empty = await post(client, ctx, { Modo: 'Completa', Publicaciones: [] })
    empty.assertStatus(400)
    assert.property(empty.body().Errors, 'Publicaciones')
    const withBajas = await post(client, ctx, {
      Modo: 'Completa',
      Publicaciones: [rows[1]],
      Bajas: [rows[2].ExternalId],
    })
    withBajas.assertStatus(400)
    assert.property(withBajas.body().Errors, 'Bajas')
    const noMode = await post(client, ctx, { Publicaciones: [rows[1]] })
    noMode.assertStatus(400)
    assert.property(noMode.body().Errors, 'Modo')
    const badMode = await post(client, ctx, { Modo: 'Total', Publicaciones: [rows[1]] })
    badMode.assertStatus(400)
    assert.property(badMode.body().Errors, 'Modo')
  })

  test('a Completa queued behind another sync archives what that one created (its archives are listed when it starts)', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const kept = listingBody()
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [kept] })
    const created = listingBody()
    const first = await post(client, ctx, { Modo: 'Parcial', Publicaciones: [created] })
    const second = await post(client, ctx, { Modo: 'Completa', Publicaciones: [kept] })
    first.assertStatus(202)
    second.assertStatus(202)
    assert.equal(second.body().Total, 1, 'its archives are not listed yet')
    await run(first.body().Id)
    await run(second.body().Id)
    const { sync, results } = await finished(client, ctx, second.body().Id)
    assert.equal(sync.Total, 2)
    assert.deepEqual(
      results.map((result) => [result.ExternalId, result.Resultado]),
      [
        [kept.ExternalId, 'SinCambios'],
        [created.ExternalId, 'Archivada'],
      ]
    )
    assert.equal((await listingRow(created.ExternalId)).state, 'archived')
  })

  test('the archive guard: more than 20 % and more than 5 of the live listings → 409 with Bajas, unless ConfirmarBajas', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const rows = Array.from({ length: 30 }, () => listingBody())
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: rows })
    const before = await db.from('listing_syncs').count('* as n').first()

    // 6 of 30 (20 %): not more than 20 % → accepted.
    const six = await post(client, ctx, {
      Modo: 'Completa',
      Simular: true,
      Publicaciones: rows.slice(6),
    })
    six.assertStatus(202)
    await run(six.body().Id)
    // 7 of 30 (23 %, and more than 5) → refused, nothing stored.
    const seven = await post(client, ctx, { Modo: 'Completa', Publicaciones: rows.slice(7) })
    seven.assertStatus(409)
    assert.equal(seven.body().Extensions.Bajas, 7)
    assert.property(seven.body().Errors, 'ConfirmarBajas')
    const after = await db.from('listing_syncs').count('* as n').first()
    assert.equal(Number(after.n), Number(before.n) + 1)
    const confirmed = await post(client, ctx, {
      Modo: 'Completa',
      ConfirmarBajas: true,
      Publicaciones: rows.slice(7),
    })
    confirmed.assertStatus(202)
    await run(confirmed.body().Id)
    const { sync } = await finished(client, ctx, confirmed.body().Id)
    assert.equal(sync.Resumen.Archivadas, 7)

    // The floor: 5 of 6 (83 %) but not more than 5 → accepted.
    const small = await setup()
    const few = Array.from({ length: 6 }, () => listingBody())
    await synced(client, small, { Modo: 'Parcial', Publicaciones: few })
    const five = await post(client, small, {
      Modo: 'Completa',
      Simular: true,
      Publicaciones: few.slice(5),
    })
    five.assertStatus(202)
  })

  test('Simular computes every result and changes no table but the sync and its results', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const rows = [listingBody(), usedBody(['http://127.0.0.1:9/s.jpg']), listingBody()]
    await synced(client, ctx, { Modo: 'Parcial', Publicaciones: rows.slice(0, 2) })
    const inventory = {
      Modo: 'Completa',
      Publicaciones: [{ ...rows[1], Color: 'Negro' }, rows[2], listingBody({ Kilometraje: -1 })],
    }
    // Every job but the sync's own (posting a sync queues it).
    const tables = [
      'listings',
      'listing_photos',
      'app_events',
      `pgboss.job where name <> 'stock.sync'`,
    ]
    const checksum = async () => {
      const sums: Record<string, string> = {}
      for (const table of tables) {
        const { rows: found } = await db.rawQuery(
          `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from (select * from ${table}) t`
        )
        sums[table] = found[0].sum
      }
      return sums
    }
    const before = await checksum()
    const simulated = await synced(client, ctx, { ...inventory, Simular: true })
    assert.deepEqual(await checksum(), before)
    assert.isTrue(simulated.sync.Simulada)
    assert.deepEqual(outcomes(simulated.results), [
      'Actualizada',
      'Creada',
      'Rechazada',
      'Archivada',
    ])

    const real = await synced(client, ctx, inventory)
    assert.deepEqual(outcomes(real.results), outcomes(simulated.results))
    assert.deepEqual(real.sync.Resumen, simulated.sync.Resumen)
  })

  test('the events: SincronizacionTerminada with the counts, to the app that synced', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { sync } = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [listingBody(), listingBody({ Kilometraje: 'x' })],
    })
    const events = await db
      .from('app_events')
      .where({ app_id: ctx.app.id, kind: 'SincronizacionTerminada' })
      .select('payload', 'topic')
    assert.lengthOf(events, 1)
    assert.equal(events[0].topic, 'publicaciones')
    assert.deepEqual(events[0].payload.Datos, {
      Creadas: 1,
      Actualizadas: 0,
      SinCambios: 0,
      Archivadas: 0,
      Rechazadas: 1,
    })
    assert.equal(events[0].payload.Recurso.href, sync._links.self.href)
  })
})

test.group('Stock sync: CSV', () => {
  const header =
    'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Descripcion,Precio.Moneda,Precio.Importe,Activa'
  const line = (externalId: string, description: string, active = 'true') =>
    `${externalId},Toyota,Corolla,2.0 XEI CVT,${thisYear()},0,"${description}",USD,32500,${active}`

  test('UTF-8 (with a BOM, mixed line ends) and Windows-1252 read the same text', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const text = 'Año impecable, señor: único dueño'
    const utf8 = `\uFEFF${header}\r\n${line('csv-utf8-1', text)}\n${line('csv-utf8-2', text, 'false')}\r`
    const posted = await postCsv(ctx, utf8)
    assert.equal(posted.status, 202, await posted.clone().text())
    const id = ((await posted.json()) as any).Id
    await run(id)
    const first = await finished(client, ctx, id)
    assert.deepEqual(outcomes(first.results), ['Creada', 'Creada'])

    const latin = Buffer.from(`${header}\r\n${line('csv-1252-1', text)}\r\n`, 'latin1')
    assert.isFalse(latin.equals(Buffer.from(latin.toString('latin1'), 'utf8')))
    const posted1252 = await postCsv(ctx, latin)
    assert.equal(posted1252.status, 202)
    await run(((await posted1252.json()) as any).Id)

    for (const externalId of ['csv-utf8-1', 'csv-1252-1']) {
      const shown = await client.get(ctx.href(externalId)).bearerToken(ctx.token)
      assert.equal(shown.body().Descripcion, text)
    }
    const suspended = await client.get(ctx.href('csv-utf8-2')).bearerToken(ctx.token)
    assert.equal(suspended.body().EstadoActual, 'Suspendida')
  })

  test('an unknown column, bad quotes, a NUL byte: 400 keyed by line, nothing stored', async ({
    assert,
  }) => {
    const ctx = await setup()
    const count = async () => Number((await db.from('listing_syncs').count('* as n').first()).n)
    const before = await count()
    const cases: Array<[string, string]> = [
      [`${header},Colour\n${line('csv-x-1', 'a')},Rojo\n`, 'Linea.1'],
      [`${header}\n${line('csv-x-2', 'a "b" c')}\n`, 'Linea.2'],
      [`${header}\n${line('csv-x-3', 'a\u0000b')}\n`, 'Linea.2'],
    ]
    for (const [csv, key] of cases) {
      const refused = await postCsv(ctx, csv)
      assert.equal(refused.status, 400, csv)
      const problem: any = await refused.json()
      assert.include(Object.keys(problem.Errors), key, JSON.stringify(problem))
    }
    const noMode = await postCsv(ctx, `${header}\n${line('csv-x-4', 'a')}\n`, '')
    assert.equal(noMode.status, 400)
    assert.equal(await count(), before)
  })
})

test.group('Stock sync: limits and isolation', () => {
  test('5 000 rows are taken, 5 001 are a 400; 20 MiB is taken, a byte more is a 413', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const row = (index: number) => ({ ...listingBody(), ExternalId: `lim-${index}` })
    const rows = Array.from({ length: 5000 }, (_, index) => row(index))
    const taken = await post(client, ctx, { Modo: 'Parcial', Simular: true, Publicaciones: rows })
    taken.assertStatus(202)
    assert.equal(taken.body().Total, 5000)
    const refused = await post(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [...rows, row(5000)],
    })
    refused.assertStatus(400)
    assert.property(refused.body().Errors, 'Publicaciones')

    // Pad one row's Descripcion… no: pad with whitespace, which JSON allows anywhere.
    const body = JSON.stringify({
      Modo: 'Parcial',
      Simular: true,
      Publicaciones: rows.slice(0, 10),
    })
    const limit = 20 * 1024 * 1024
    const exact = body.slice(0, -1) + ' '.repeat(limit - body.length) + '}'
    assert.equal(Buffer.byteLength(exact), limit)
    const send = (text: string) =>
      raw(syncs(ctx), {
        method: 'POST',
        headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'application/json' },
        body: text,
      })
    assert.equal((await send(exact)).status, 202)
    const over = await send(exact.slice(0, -1) + ' }')
    assert.equal(over.status, 413)
    assert.include(over.headers.get('content-type'), 'application/problem+json')
  })

  test('another app: 404 on reads, 403 on POST; a sync id of another agency is 404', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const posted = await post(client, ctx, { Modo: 'Parcial', Publicaciones: [listingBody()] })
    posted.assertStatus(202)
    const id = posted.body().Id
    const other = await createCaller('Another sync app')
    const foreign = await post(
      client,
      ctx,
      { Modo: 'Parcial', Publicaciones: [listingBody()] },
      other.token
    )
    foreign.assertStatus(403)
    for (const path of [syncs(ctx), `${syncs(ctx)}/${id}`, `${syncs(ctx)}/${id}/resultados`]) {
      const read = await client.get(path).bearerToken(other.token)
      read.assertStatus(404)
    }
    // Linked to the agency, the other app still sees only its own syncs.
    await grantAgency(other.app, ctx.adminMail)
    const listed = await client.get(syncs(ctx)).bearerToken(other.token)
    listed.assertStatus(200)
    assert.lengthOf(listed.body()._entries, 0)
    ;(await client.get(`${syncs(ctx)}/${id}`).bearerToken(other.token)).assertStatus(404)

    const elsewhere = await setup()
    const mine = await client
      .get(`/v3/publicaciones/${elsewhere.adminMail}/sincronizaciones/${id}`)
      .bearerToken(elsewhere.token)
    mine.assertStatus(404)
  })

  test('the list: the last 30 days, newest first; results filter by Resultado', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const a = await synced(client, ctx, { Modo: 'Parcial', Publicaciones: [listingBody()] })
    const b = await synced(client, ctx, {
      Modo: 'Parcial',
      Publicaciones: [listingBody(), listingBody({ Kilometraje: 'x' })],
    })
    const old = await post(client, ctx, { Modo: 'Parcial', Publicaciones: [listingBody()] })
    await db
      .from('listing_syncs')
      .where('id', old.body().Id)
      .update({ received_at: db.raw(`now() - interval '31 days'`) })
    const listed = await client.get(syncs(ctx)).bearerToken(ctx.token)
    assert.deepEqual(
      listed.body()._entries.map((entry: any) => entry.Id),
      [b.sync.Id, a.sync.Id]
    )
    const rejected = await client
      .get(`${syncs(ctx)}/${b.sync.Id}/resultados`)
      .qs({ resultado: 'Rechazada' })
      .bearerToken(ctx.token)
    assert.deepEqual(outcomes(rejected.body()._entries), ['Rechazada'])
    const bad = await client
      .get(`${syncs(ctx)}/${b.sync.Id}/resultados`)
      .qs({ resultado: 'Otra' })
      .bearerToken(ctx.token)
    bad.assertStatus(400)
  })

  test('types and encodings: text/plain is 415, a gzip body is 415, JSON that does not parse is 400', async ({
    assert,
  }) => {
    const ctx = await setup()
    const send = (headers: Record<string, string>, body: string) =>
      raw(syncs(ctx), {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.token}`, ...headers },
        body,
      })
    assert.equal((await send({ 'content-type': 'text/plain' }, 'x')).status, 415)
    assert.equal(
      (await send({ 'content-type': 'application/json', 'content-encoding': 'gzip' }, '{}')).status,
      415
    )
    const broken = await send({ 'content-type': 'application/json' }, '{"Modo": "Parcial", "Publ')
    assert.equal(broken.status, 400)
    const unknown = await send(
      { 'content-type': 'application/json' },
      JSON.stringify({ Modo: 'Parcial', Publicaciones: [listingBody()], Extra: 1 })
    )
    assert.equal(unknown.status, 400)
    assert.property(((await unknown.json()) as any).Errors, 'Extra')
    const notRows = await send(
      { 'content-type': 'application/json' },
      JSON.stringify({ Modo: 'Parcial', Publicaciones: [1, 2] })
    )
    assert.equal(notRows.status, 400)
    assert.property(((await notRows.json()) as any).Errors, 'Publicaciones')
  })
})
