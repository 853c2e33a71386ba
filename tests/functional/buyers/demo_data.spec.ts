/*
 * The first five minutes (README): the buyers module's start step, called as
 * `npm start` calls it after the apps step created the demo app, makes an
 * agency linked to that app, listings whose drawn photos are settled, and an
 * inquiry; it prints the buyers' page and a curl that both work. Production,
 * tests and DEMO_DATA=false make nothing.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { settings } from '#core/settings'
import type { StartContext } from '#core/modules'
import { DEMO_LISTINGS, demoSkipped, runDemo, steps } from '#buyers/demo'
import { createCaller } from '#tests/helpers/apps'
import { suspendAgency, uniqueEmail } from '#tests/helpers/agencies'
import { seedCatalog } from '#tests/helpers/catalog'
import { baseUrl } from '#tests/helpers/http'

async function startContext(demoApp?: { id: number; token: string }) {
  const ace = await app.container.make('ace')
  ace.ui.switchMode('raw')
  ace.ui.logger.flushLogs()
  const context: StartContext = { logger: ace.ui.logger, ui: ace.ui, publicUrl: settings.publicUrl }
  if (demoApp) context.demoApp = demoApp
  return {
    context,
    printed: () =>
      ace.ui.logger
        .getLogs()
        .map((log) => log.message)
        .join('\n'),
  }
}

const development = { nodeEnv: 'development', demoData: true }

test.group('Demo data of npm start', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('makes the agency, listings with settled photos and an inquiry; prints a page and a curl that work', async ({
    assert,
    client,
    cleanup,
  }) => {
    const { app: demoApp, token } = await createCaller('Demo', ['consultas:crear'])
    const adminMail = uniqueEmail('demo')
    // The demo agency takes other leads in AR-C: suspended after, so later tests find that region empty.
    cleanup(() => suspendAgency(adminMail))
    const { context, printed } = await startContext({ id: demoApp.id, token })

    const demo = await runDemo(context, { switches: development, adminMail })
    assert.isNotNull(demo, printed())
    assert.lengthOf(demo!.listings, DEMO_LISTINGS.length)

    // The curl, as printed, lists the agency's listings with the demo token.
    const curl = /curl -H "Authorization: Bearer (\S+)" (\S+)/.exec(printed())
    assert.isNotNull(curl, printed())
    assert.equal(curl![1], token)
    assert.equal(curl![2], `${settings.publicUrl}/v3/publicaciones/${adminMail}`)
    const listed = await client.get(new URL(curl![2]).pathname).bearerToken(token)
    listed.assertStatus(200)
    assert.equal(listed.body().Total, DEMO_LISTINGS.length)

    // Every photo is settled: ready, and served as a JPEG of at least 640×360.
    for (const { externalId } of demo!.listings) {
      const photos = await client
        .get(`/v3/publicaciones/${adminMail}/${externalId}/fotos`)
        .bearerToken(token)
      photos.assertStatus(200)
      const entries = photos.body()._entries as any[]
      assert.isAtLeast(entries.length, 1)
      for (const photo of entries) assert.equal(photo.Estado, 'Lista', JSON.stringify(photo))
    }

    // The buyers' page, as printed, shows the listing and its photos.
    assert.include(printed(), `Buyers' page: ${demo!.pageUrl}`)
    const page = await client.get(new URL(demo!.pageUrl).pathname)
    page.assertStatus(200)
    const photoUrl = /\/fotos\/\d+\/\d+-[0-9a-f]{16}\.jpg/.exec(page.text())
    assert.isNotNull(photoUrl, 'the page shows a photo')
    const image = await fetch(`${baseUrl()}${photoUrl![0]}`)
    assert.equal(image.headers.get('content-type'), 'image/jpeg')

    // The inquiry on the first listing.
    const inquiries = await client.get(`/v3/consultas/${adminMail}`).bearerToken(token)
    inquiries.assertStatus(200)
    assert.equal(inquiries.body().Total, 1)
    assert.equal(inquiries.body()._entries[0].Auto.ExternalId, DEMO_LISTINGS[0].body.ExternalId)
  }).timeout(60_000)

  test('production, tests and DEMO_DATA=false make nothing; nor does a boot that made no demo app', async ({
    assert,
    client,
  }) => {
    assert.equal(demoSkipped({ nodeEnv: 'production', demoData: true }), 'production')
    assert.equal(demoSkipped({ nodeEnv: 'test', demoData: true }), 'tests')
    assert.equal(demoSkipped({ nodeEnv: 'development', demoData: false }), 'DEMO_DATA=false')
    assert.isNull(demoSkipped(development))

    const { app: demoApp, token } = await createCaller('Demo', ['consultas:crear'])
    const cases = [
      { switches: { nodeEnv: 'production', demoData: true } },
      { switches: { nodeEnv: 'development', demoData: false } },
      {}, // this process's own environment: NODE_ENV=test
    ]
    for (const options of cases) {
      const adminMail = uniqueEmail('demo')
      const { context } = await startContext({ id: demoApp.id, token })
      assert.isNull(await runDemo(context, { ...options, adminMail }))
      const agency = await client.get(`/v3/agencias/${adminMail}`).bearerToken(token)
      assert.equal(agency.status(), 404, JSON.stringify(options))
    }

    // The registered step, as `npm start` runs it, on a boot where apps existed already.
    const { context, printed } = await startContext()
    for (const step of steps) await step.run(context)
    assert.notInclude(printed(), 'Demo agency')
  })
})
