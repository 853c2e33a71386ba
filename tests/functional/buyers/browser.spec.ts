/*
 * End to end in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): a buyer opens a listing page, the photos load, the form is
 * filled and sent, the confirmation shows, and the agency's webhook receiver
 * gets the signed PublicacionConsultada. Screenshots go to tmp/.
 * Skipped, saying why, when /usr/bin/chromium is not installed.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { Webhook } from 'standardwebhooks'
import JobRunner from '#core/jobs/runner'
import ListingDirectory from '#listings/services/listing_directory'
import { createCaller } from '#tests/helpers/apps'
import { createAgency } from '#tests/helpers/agencies'
import { createListing } from '#tests/helpers/listings'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { startLeadWorkers, until } from '#tests/helpers/leads'
import { baseUrl } from '#tests/helpers/http'
import { carPhoto } from '#tests/helpers/car_photos'
import { seedCatalog } from '#tests/helpers/catalog'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const SECRET = 'secreto-del-webhook-de-prueba'

test.group('Buyer in a browser', (group) => {
  let receiver: Receiver
  group.setup(async () => {
    receiver = await startReceiver()
    return () => receiver.close()
  })

  test('opens a listing, sees its photos, sends an inquiry; the agency gets the signed webhook', async ({
    client,
    assert,
  }) => {
    const { chromium } = await import('playwright-core')
    const { app: caller, token } = await createCaller('Portal e2e')
    const fixture = await createAgency(caller, { tradeName: 'Automotores San Martín' })
    const colours = ['#b3202a', '#8c1820', '#c8323c']
    for (const [index, colour] of colours.entries()) {
      receiver.route(`/fotos/${index}.jpg`, {
        status: 200,
        headers: { 'content-type': 'image/jpeg' },
        body: await carPhoto(colour, index),
      })
    }
    const listing = await createListing(caller, fixture, {
      Marca: 'Toyota',
      Modelo: 'Corolla',
      Version: '1.8 XEI CVT',
      VersionYear: 2021,
      Kilometraje: 48500,
      Color: 'Rojo',
      Descripcion: 'Único dueño, service oficial al día.\nCubiertas nuevas. Acepto permuta.',
      Precio: { Moneda: 'USD', Importe: 21900 },
      Fotos: colours.map((_, index) => receiver.url(`/fotos/${index}.jpg`)),
    })

    // The photo pipeline runs in this process.
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['photos.fetch'] })
    const ready = await until(
      async () => (await app.container.make(ListingDirectory)).bySlug(listing.slug),
      (found) => (found?.photos.length ?? 0) === colours.length,
      30_000
    )
    if (ready?.photos.length !== colours.length) {
      const states = await client
        .get(`/v3/publicaciones/${fixture.agency.adminMail}/${listing.externalId}/fotos`)
        .bearerToken(token)
      assert.fail(`photos not processed: ${states.text()}`)
    }

    // The agency's webhook, configured through the API; deliveries run in this process.
    const configured = await client
      .put(`/v3/notificaciones/${fixture.agency.adminMail}`)
      .bearerToken(token)
      .json({
        PublicacionConsultadaWebHook: {
          Callback: receiver.url('/hook'),
          Secret: SECRET,
          Activo: true,
        },
      })
    configured.assertStatus(200)
    await startLeadWorkers()

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    try {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 900 },
        locale: 'es-AR',
      })
      const response = await page.goto(`${baseUrl()}/autos/${listing.slug}`)
      assert.equal(response?.status(), 200)
      assert.match(await page.title(), /^Toyota Corolla 1\.8 XEI CVT 2021 — US\$\s?21\.900/)

      // Every photo (main and lazy thumbnails) loads.
      // (Browser-side code as strings: the project's TypeScript has no DOM types.)
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)')
      // A function, not a string: the page's CSP forbids eval, which polling a string predicate needs.
      await page.waitForFunction(() =>
        [...(globalThis as any).document.images].every(
          (image: any) => image.complete && image.naturalWidth > 0
        )
      )
      const images = await page.$$eval('img', (all) =>
        all.map((image) => ({ alt: image.alt, width: image.naturalWidth }))
      )
      assert.lengthOf(images, 1 + colours.length)
      assert.isTrue(
        images.every((image) => image.width > 0 && image.alt.startsWith('Toyota Corolla'))
      )
      await page.evaluate('window.scrollTo(0, 0)')
      mkdirSync(app.makePath('tmp'), { recursive: true })
      await page.screenshot({ path: app.makePath('tmp/buyers-listing.png'), fullPage: true })

      await page.setViewportSize({ width: 390, height: 844 })
      await page.screenshot({ path: app.makePath('tmp/buyers-listing-mobile.png'), fullPage: true })
      await page.setViewportSize({ width: 1280, height: 900 })

      // The buyer fills in the form by its labels and sends it.
      await page.getByLabel('Nombre', { exact: true }).fill('Martina')
      await page.getByLabel('Apellido').fill('Pereyra')
      await page.getByLabel('Correo electrónico').fill('martina.pereyra@example.com')
      await page.getByLabel(/^Teléfono/).fill('+54 11 4555-1234')
      await page.getByLabel('¿Qué te interesa?').selectOption('Financiacion')
      await page.getByLabel(/^Mensaje para la agencia/).fill('Hola, ¿lo puedo ver el sábado?')
      await page.getByRole('button', { name: 'Enviar consulta' }).click()
      await page
        .waitForURL(/\/consulta-enviada(#\w+)?$/, { timeout: 15_000 })
        .catch(async (error) => {
          await page.screenshot({ path: app.makePath('tmp/buyers-failure.png'), fullPage: true })
          throw error
        })
      assert.include(await page.textContent('h1'), '¡Listo, Martina! Tu consulta fue enviada')
      await page.screenshot({ path: app.makePath('tmp/buyers-confirmation.png'), fullPage: true })
    } finally {
      await browser.close()
    }

    // The receiver also served the photos: wait for the webhook itself.
    const delivery = await until(
      async () => receiver.requests.find((request) => request.path === '/hook'),
      (found) => found !== undefined,
      20_000
    )
    assert.exists(delivery, 'webhook received')
    if (!delivery) return
    const payload = new Webhook(SECRET, { format: 'raw' }).verify(
      delivery.rawBody.toString('utf8'),
      {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }
    ) as any
    assert.equal(payload.Tipo, 'PublicacionConsultada')
    assert.equal(payload.Consulta.OrigenLead, 'Portal')
    assert.equal(payload.Consulta.TipoAnuncio, 'Publicacion')
    assert.equal(payload.Consulta.Auto.ExternalId, listing.externalId)
    assert.include(payload.Consulta.Interesado, {
      Nombre: 'Martina',
      Apellido: 'Pereyra',
      Email: 'martina.pereyra@example.com',
      Interes: 'Financiacion',
    })
  })
    .skip(
      !existsSync(CHROMIUM),
      `Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium`
    )
    .timeout(90_000)

  test('pages fit a phone screen without sideways scrolling; error and model pages render', async ({
    assert,
  }) => {
    const { chromium } = await import('playwright-core')
    const { app: caller } = await createCaller('Portal e2e móvil')
    const fixture = await createAgency(caller)
    const active = await createListing(caller, fixture, { Descripcion: 'x'.repeat(300) })
    const suspended = await createListing(caller, fixture, { Activa: false })
    const seed = await seedCatalog()
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
    try {
      const page = await browser.newPage({ viewport: { width: 360, height: 740 }, locale: 'es-AR' })
      const pages: Array<[string, number, string]> = [
        [`/autos/${active.slug}`, 200, 'buyers-listing-phone.png'],
        [`/autos/${suspended.slug}`, 410, 'buyers-gone.png'],
        [`/modelos/${seed.models['toyota/corolla']}`, 200, 'buyers-model-phone.png'],
      ]
      for (const [path, status, shot] of pages) {
        const response = await page.goto(`${baseUrl()}${path}`)
        assert.equal(response?.status(), status, path)
        const overflow = await page.evaluate(
          'document.scrollingElement.scrollWidth - window.innerWidth'
        )
        assert.equal(overflow, 0, `${path} scrolls sideways`)
        await page.screenshot({ path: app.makePath(`tmp/${shot}`), fullPage: true })
      }
    } finally {
      await browser.close()
    }
  })
    .skip(
      !existsSync(CHROMIUM),
      `Chromium is not installed at ${CHROMIUM}: apt-get install -y chromium`
    )
    .timeout(60_000)
})
