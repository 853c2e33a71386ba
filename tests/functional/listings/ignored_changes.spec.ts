/*
 * Nothing changed or ignored without a word (docs/design.md §24, §25): a PUT or
 * a stock sync row naming the vehicle the listing was created with may only
 * repeat it (another value → 400 / Rechazada keyed by the member); a change the
 * spec ignores, or an exposure the plan had no quota for, answers `Avisos`;
 * `sincronizaciones` (any case) is not an ExternalId.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import { raw } from '#tests/helpers/http'
import { seedCatalog } from '#tests/helpers/catalog'
import { assertErrorKey, listingBody, setup, thisYear } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

const FIXED = 'El vehículo se fija al crear: archive la publicación y cree otra.'

async function created(client: any, ctx: Ctx, overrides: Record<string, unknown> = {}) {
  const body = listingBody(overrides)
  const response = await client.post(ctx.base).bearerToken(ctx.token).json(body)
  response.assertStatus(201)
  return { body, etag: response.header('etag') as string, response }
}

async function revision(externalId: string) {
  const row = await db.from('listings').where('external_id', externalId).firstOrFail()
  return { revision: row.revision as number, version: row.version_name as string }
}

const syncs = (ctx: Ctx) => `${ctx.base}/sincronizaciones`

/** Runs a posted sync's job now and answers its results. */
async function resultsOf(client: any, ctx: Ctx, id: number) {
  const runner = await app.container.make(JobRunner)
  await runner.runNow('stock.sync', { syncId: id })
  const listed = await client.get(`${syncs(ctx)}/${id}/resultados`).bearerToken(ctx.token)
  listed.assertStatus(200)
  return listed.body()._entries as any[]
}

async function syncJson(client: any, ctx: Ctx, rows: object[]) {
  const posted = await client
    .post(syncs(ctx))
    .bearerToken(ctx.token)
    .json({ Modo: 'Parcial', Publicaciones: rows })
  posted.assertStatus(202)
  return resultsOf(client, ctx, posted.body().Id)
}

async function syncCsv(client: any, ctx: Ctx, csv: string) {
  const posted = await raw(`${syncs(ctx)}?modo=Parcial`, {
    method: 'POST',
    headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'text/csv' },
    body: csv,
  })
  if (posted.status !== 202) throw new Error(await posted.text())
  return resultsOf(client, ctx, ((await posted.json()) as any).Id)
}

test.group('Listings: the vehicle is fixed at creation', () => {
  test('PUT changing Version or Modelo: 400 keyed by the member, nothing written', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { body, etag } = await created(client, ctx)
    const before = await revision(body.ExternalId)
    for (const [member, value] of [
      ['Version', '2.0 SEG CVT'],
      ['Modelo', 'Corolla Cross'],
      ['Marca', 'Volkswagen'],
      ['Transmision', 'Manual'],
      ['Propulsion', 'Diésel'],
    ]) {
      const put = await client
        .put(ctx.href(body.ExternalId))
        .bearerToken(ctx.token)
        .json({ Color: 'Rojo', [member]: value })
      put.assertStatus(400)
      assert.deepEqual(put.body().Errors[member], [FIXED], member)
    }
    const other = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ ExternalId: `${body.ExternalId}-b` })
    other.assertStatus(400)
    assertErrorKey(assert, other.body(), 'ExternalId')
    assert.deepEqual(await revision(body.ExternalId), before)
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    assert.equal(read.header('etag'), etag)
    assert.equal(read.body().Version, '2.0 XEI CVT')
  })

  test('the same vehicle, as GET shows it or spelled otherwise: accepted and ignored', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { body, etag } = await created(client, ctx)
    const ids = await seedCatalog()
    const put = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .header('If-Match', etag)
      .json({
        ExternalId: body.ExternalId.toUpperCase(),
        Marca: `/v3/marcas/${ids.brands.toyota}`,
        Modelo: 'COROLLA',
        Version: '2.0 xei cvt',
        Transmision: 'cvt',
        Propulsion: 'Nafta',
      })
    put.assertStatus(200)
    assert.equal(put.header('etag'), etag)
    assert.notProperty(put.body(), 'Avisos')

    // The other side: one changed value next to the same ones is a write.
    const changed = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Modelo: 'Corolla', Version: '2.0 XEI CVT', Color: 'Rojo' })
    changed.assertStatus(200)
    assert.notEqual(changed.header('etag'), etag)
  })

  test('a sync row changing Version: Rechazada keyed Version (JSON and CSV); the same one: SinCambios', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const { body } = await created(client, ctx)
    const before = await revision(body.ExternalId)

    const json = await syncJson(client, ctx, [
      { ...body, Version: '2.0 SEG CVT' },
      listingBody({ ExternalId: `${body.ExternalId}-n` }),
    ])
    assert.deepEqual(
      json.map((row) => row.Resultado),
      ['Rechazada', 'Creada']
    )
    assert.deepEqual(json[0].Errors, { Version: [FIXED] })

    const header = 'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Color,Descripcion'
    const line = (model: string, version: string) =>
      `${body.ExternalId},Toyota,${model},${version},${body.VersionYear},0,${body.Color},"${body.Descripcion}"`
    const csv = await syncCsv(client, ctx, `${header}\n${line('Corolla Cross', '2.0 XEI CVT')}\n`)
    assert.equal(csv[0].Resultado, 'Rechazada')
    assert.deepEqual(csv[0].Errors, { Modelo: [FIXED] })
    assert.deepEqual(await revision(body.ExternalId), before)

    const same = await syncCsv(client, ctx, `${header}\n${line('Corolla', '2.0 xei cvt')}\n`)
    assert.equal(same[0].Resultado, 'SinCambios')
  })
})

test.group('Listings: Avisos name what a write did not do', () => {
  test('Exposicion Alta without Alta quota: Media, said in Avisos (POST, PUT, sync row); with quota: none', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 20, alta: 1, media: 20, baja: 20 } })
    const first = await created(client, ctx, { Exposicion: 'Alta' })
    assert.equal(first.response.body().Exposicion, 'Alta')
    assert.notProperty(first.response.body(), 'Avisos')

    const second = await created(client, ctx, { Exposicion: 'Alta' })
    assert.equal(second.response.body().Exposicion, 'Media')
    assert.deepEqual(second.response.body().Avisos, [
      {
        Campo: 'Exposicion',
        Detalle:
          'El plan no tiene cupo de exposición Alta: la publicación quedó con exposición Media.',
      },
    ])

    const put = await client
      .put(ctx.href(second.body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Exposicion: 'Alta' })
    put.assertStatus(200)
    assert.equal(put.header('etag'), second.etag)
    assert.deepEqual(
      put.body().Avisos.map((aviso: any) => aviso.Campo),
      ['Exposicion']
    )
    const rows = await syncJson(client, ctx, [{ ...second.body, Exposicion: 'Alta' }])
    assert.equal(rows[0].Resultado, 'SinCambios')
    assert.deepEqual(rows[0].Avisos, put.body().Avisos)
  })

  test('Fotos as long as the listing’s (not the ones GET shows), technical data of a catalogue version: 200 with an Aviso, in a sync row too', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const photos = ['https://example.com/a.jpg', 'https://example.com/b.jpg']
    const { body, etag } = await created(client, ctx, {
      VersionYear: thisYear() - 2,
      Kilometraje: 30000,
      Fotos: photos,
    })
    const other = ['https://example.com/c.jpg', 'https://example.com/d.jpg']
    const put = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Fotos: other })
    put.assertStatus(200)
    assert.equal(put.header('etag'), etag)
    assert.deepEqual(
      put.body().Avisos.map((aviso: any) => aviso.Campo),
      ['Fotos']
    )
    // The list the listing has (as sent): no change, nothing to say.
    const same = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ Fotos: photos })
    same.assertStatus(200)
    assert.notProperty(same.body(), 'Avisos')

    // Technical data of a catalogue version: it shows the catalogue's; other data is said to be ignored.
    const read = await client.get(ctx.href(body.ExternalId)).bearerToken(ctx.token)
    const specs = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ DatosTecnicosCustom: [{ Nombre: 'Potencia', Valor: '1 CV' }] })
    specs.assertStatus(200)
    assert.deepEqual(
      specs.body().Avisos.map((aviso: any) => aviso.Campo),
      ['DatosTecnicosCustom']
    )
    assert.deepEqual(specs.body().DatosTecnicosCustom, read.body().DatosTecnicosCustom)
    const shown = await client
      .put(ctx.href(body.ExternalId))
      .bearerToken(ctx.token)
      .json({ DatosTecnicosCustom: read.body().DatosTecnicosCustom })
    assert.notProperty(shown.body(), 'Avisos')

    const rows = await syncJson(client, ctx, [
      { ...body, Fotos: other },
      { ...body, ExternalId: `${body.ExternalId}-same`, Fotos: photos },
    ])
    assert.equal(rows[0].Resultado, 'SinCambios')
    assert.deepEqual(rows[0].Avisos, put.body().Avisos)
    assert.equal(rows[1].Resultado, 'Creada')
    assert.notProperty(rows[1], 'Avisos')
  })
})

test.group('Listings: sincronizaciones is not an ExternalId', () => {
  test('POST, PUT and a sync row refuse it in any case (400 keyed ExternalId); sincronizaciones-1 is fine', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    for (const externalId of ['sincronizaciones', 'SINCRONIZACIONES', 'Sincronizaciones']) {
      const post = await client
        .post(ctx.base)
        .bearerToken(ctx.token)
        .json(listingBody({ ExternalId: externalId }))
      post.assertStatus(400)
      assertErrorKey(assert, post.body(), 'ExternalId')
    }
    const fine = await created(client, ctx, { ExternalId: `sincronizaciones-1` })
    const read = await client.get(ctx.href(fine.body.ExternalId)).bearerToken(ctx.token)
    read.assertStatus(200)

    const put = await client
      .put(ctx.href(fine.body.ExternalId))
      .bearerToken(ctx.token)
      .json({ ExternalId: 'SINCRONIZACIONES' })
    put.assertStatus(400)
    assertErrorKey(assert, put.body(), 'ExternalId')
    const path = await client
      .put(`${ctx.base}/SINCRONIZACIONES`)
      .bearerToken(ctx.token)
      .json({ Color: 'Rojo' })
    path.assertStatus(400)

    const rows = await syncJson(client, ctx, [
      listingBody({ ExternalId: 'Sincronizaciones' }),
      listingBody({ ExternalId: 'sincronizaciones-2' }),
    ])
    assert.deepEqual(
      rows.map((row) => row.Resultado),
      ['Rechazada', 'Creada']
    )
    assert.deepEqual(Object.keys(rows[0].Errors), ['ExternalId'])
  })
})
