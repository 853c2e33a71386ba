import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import JobRunner from '#core/jobs/runner'
import { listingBody, setup } from './support.js'
import { raw } from '#tests/helpers/http'

test.group('Stock sync smoke', () => {
  test('json', async ({ client, assert }) => {
    const ctx = await setup()
    const rows = [listingBody(), listingBody(), listingBody({ Kilometraje: 'x' })]
    const posted = await client
      .post(`${ctx.base}/sincronizaciones`)
      .bearerToken(ctx.token)
      .json({ Modo: 'Parcial', Publicaciones: rows })
    console.log(posted.status(), posted.text(), posted.header('location'))
    const id = posted.body().Id
    const runner = await app.container.make(JobRunner)
    await runner.runNow('stock.sync', { syncId: id })
    const shown = await client.get(`${ctx.base}/sincronizaciones/${id}`).bearerToken(ctx.token)
    console.log(shown.text())
    const results = await client.get(`${ctx.base}/sincronizaciones/${id}/resultados`).bearerToken(ctx.token)
    console.log(results.text())
    const again = await client
      .post(`${ctx.base}/sincronizaciones`)
      .bearerToken(ctx.token)
      .json({ Modo: 'Parcial', Publicaciones: rows })
    await runner.runNow('stock.sync', { syncId: again.body().Id })
    const r2 = await client.get(`${ctx.base}/sincronizaciones/${again.body().Id}`).bearerToken(ctx.token)
    console.log(r2.text())
    const csv = 'ExternalId,Marca,Modelo,Version,VersionYear,Kilometraje,Precio.Moneda,Precio.Importe\n' +
      `${rows[0].ExternalId},Toyota,Corolla,2.0 XEI CVT,${rows[0].VersionYear},0,USD,1000\n`
    const c = await raw(`${ctx.base}/sincronizaciones?modo=Parcial`, { method: 'POST', headers: { authorization: `Bearer ${ctx.token}`, 'content-type': 'text/csv' }, body: csv })
    const cb: any = await c.json()
    console.log(c.status, cb)
    await runner.runNow('stock.sync', { syncId: cb.Id })
    const r3 = await client.get(`${ctx.base}/sincronizaciones/${cb.Id}/resultados`).bearerToken(ctx.token)
    console.log(r3.text())
    const list = await client.get(`${ctx.base}/sincronizaciones`).bearerToken(ctx.token)
    console.log(list.status())
    assert.isTrue(true)
  })
})
