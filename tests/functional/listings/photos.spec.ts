import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { readdir } from 'node:fs/promises'
import JobRunner from '#core/jobs/runner'
import { DOWNLOADS_DIR } from '#listings/jobs/fetch_photo'
import { settings } from '#core/settings'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { raw } from '#tests/helpers/http'
import { until } from '#tests/helpers/until'
import { assertErrorKey, listingBody, setup, thisYear } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

function jpeg(width: number, height: number, background = { r: 200, g: 30, b: 30 }) {
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer()
}

/** A PNG whose header claims `width`×`height` with almost no data: a decompression bomb's header. */
function pngClaiming(width: number, height: number) {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(2, 9) // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The photos of `href` once every one satisfies `done` (fails the test after 20 s). */
async function photosWhen(
  client: any,
  ctx: Ctx,
  href: string,
  done: (entry: any) => boolean
): Promise<any[]> {
  const entries = await until(
    async () => (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()._entries as any[],
    (list) => list.every(done),
    20_000
  )
  if (!entries.every(done)) throw new Error('condition not met in time')
  return entries
}

/** Creates a used listing with these photo URLs and waits until none is pending. */
async function listingWithPhotos(client: any, ctx: Ctx, urls: string[]) {
  const body = listingBody({ VersionYear: thisYear() - 2, Kilometraje: 30000, Fotos: urls })
  const created = await client.post(ctx.base).bearerToken(ctx.token).json(body)
  created.assertStatus(201)
  const href = ctx.href(body.ExternalId)
  const photos = await photosWhen(client, ctx, href, (entry) => entry.Estado !== 'Pendiente')
  return { href, created, photos }
}

test.group('Listings: photo pipeline (photos.fetch)', (group) => {
  let receiver: Receiver
  let ctx: Ctx
  group.setup(async () => {
    receiver = await startReceiver()
    ctx = await setup()
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['photos.fetch'] })
    return () => receiver.close()
  })

  test('a 2-photo listing ends with 2 service URLs that serve JPEGs ≥ 640 wide, and a new ETag', async ({
    client,
    assert,
  }) => {
    receiver.route('/a.jpg', {
      headers: { 'content-type': 'image/jpeg' },
      body: await jpeg(2400, 1600),
    })
    receiver.route('/b.png', {
      headers: { 'content-type': 'image/png' },
      body: await sharp({ create: { width: 640, height: 360, channels: 3, background: '#0a0' } })
        .png()
        .toBuffer(),
    })
    const { href, created, photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/a.jpg'),
      receiver.url('/b.png'),
    ])
    assert.deepEqual(created.body().Fotos, [])
    assert.deepEqual(
      photos.map((photo) => photo.Estado),
      ['Lista', 'Lista']
    )
    assert.deepEqual(
      photos.map((photo) => [photo.Ancho, photo.Alto]),
      [
        [1920, 1280],
        [640, 360],
      ]
    )

    const listing = await client.get(href).bearerToken(ctx.token)
    assert.notEqual(listing.header('etag'), created.header('etag'))
    const urls: string[] = listing.body().Fotos
    assert.lengthOf(urls, 2)
    assert.deepEqual(
      urls,
      photos.map((photo) => photo.Url)
    )
    for (const url of urls) {
      assert.isTrue(url.startsWith(`${settings.publicUrl}/fotos/`))
      const response = await fetch(url)
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-type'), 'image/jpeg')
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
      assert.equal(meta.format, 'jpeg')
      assert.isAtLeast(meta.width!, 640)
      assert.isUndefined(meta.exif)
    }
    const thumbnail = await fetch(photos[0].Miniatura)
    assert.equal((await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).width, 400)
    // Unknown keys are 404, and no path escapes the photo store.
    assert.equal((await raw('/fotos/1/nope.jpg')).status, 404)
    assert.equal((await raw('/fotos/..%2F..%2Fpackage.json/x')).status, 404)
  })

  test('the photo is auto-rotated and stripped of its metadata', async ({ client, assert }) => {
    // 1000×700 stored with EXIF orientation 6 (90° clockwise): upright it is 700×1000.
    const rotated = await sharp({
      create: { width: 1000, height: 700, channels: 3, background: '#333' },
    })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer()
    receiver.route('/rotated.jpg', { headers: { 'content-type': 'image/jpeg' }, body: rotated })
    const { photos } = await listingWithPhotos(client, ctx, [receiver.url('/rotated.jpg')])
    assert.equal(photos[0].Estado, 'Lista')
    const stored = await sharp(
      Buffer.from(await (await fetch(photos[0].Url)).arrayBuffer())
    ).metadata()
    assert.deepEqual([stored.width, stored.height], [700, 1000])
    assert.isUndefined(stored.orientation)
    assert.isUndefined(stored.exif)
  })

  test('a 640×360 photo is accepted; 639×360 and 640×359 and 320×200 are Rechazada with a reason', async ({
    client,
    assert,
  }) => {
    receiver.route('/ok.jpg', { body: await jpeg(640, 360) })
    receiver.route('/narrow.jpg', { body: await jpeg(639, 360) })
    receiver.route('/short.jpg', { body: await jpeg(640, 359) })
    receiver.route('/small.jpg', { body: await jpeg(320, 200) })
    const urls = ['/ok.jpg', '/narrow.jpg', '/short.jpg', '/small.jpg'].map((path) =>
      receiver.url(path)
    )
    const { href, photos } = await listingWithPhotos(client, ctx, urls)
    assert.deepEqual(
      photos.map((photo) => photo.Estado),
      ['Lista', 'Rechazada', 'Rechazada', 'Rechazada']
    )
    assert.equal(photos[3].Motivo, 'La imagen mide 320×200 px; el mínimo es 640×360 px.')
    assert.deepEqual(
      photos.map((photo) => photo.Origen),
      urls
    )
    // Only processed photos are listed on the Publicacion.
    assert.lengthOf((await client.get(href).bearerToken(ctx.token)).body().Fotos, 1)
  })

  test('a non-image and a pixel bomb are rejected', async ({ client, assert }) => {
    receiver.route('/text.jpg', {
      headers: { 'content-type': 'image/jpeg' },
      body: 'esto no es una imagen',
    })
    receiver.route('/bomb.png', {
      headers: { 'content-type': 'image/png' },
      body: pngClaiming(60_000, 60_000),
    })
    const { photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/text.jpg'),
      receiver.url('/bomb.png'),
    ])
    assert.deepEqual(
      photos.map((photo) => photo.Estado),
      ['Rechazada', 'Rechazada']
    )
    assert.match(photos[0].Motivo, /no es una imagen/)
    assert.equal(photos[1].Motivo, 'La imagen supera el máximo de 50 megapíxeles.')
  })

  test('pixel limit: a header within 50 megapixels is decoded (and found truncated), one above is refused unread', async ({
    client,
    assert,
  }) => {
    receiver.route('/within.png', { body: pngClaiming(7071, 7071) })
    receiver.route('/above.png', { body: pngClaiming(7072, 7072) })
    const { photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/within.png'),
      receiver.url('/above.png'),
    ])
    assert.equal(photos[0].Motivo, 'La imagen está dañada y no se pudo procesar.')
    assert.equal(photos[1].Motivo, 'La imagen supera el máximo de 50 megapíxeles.')
  })

  test('size cut: 15 MiB is downloaded (then judged as an image), 15 MiB + 1 byte is refused', async ({
    client,
    assert,
  }) => {
    receiver.route('/exact.bin', { bodyBytes: 15 * 1024 * 1024 })
    receiver.route('/over.bin', { bodyBytes: 15 * 1024 * 1024 + 1 })
    const { photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/exact.bin'),
      receiver.url('/over.bin'),
    ])
    assert.match(photos[0].Motivo, /no es una imagen/)
    assert.equal(photos[1].Motivo, 'La foto supera el máximo de 15 MiB.')
  })

  test('downloads go through a file that no try leaves behind; a 4000 px JPEG comes out 1920 px wide', async ({
    client,
    assert,
  }) => {
    // The folder is the machine's ($TMPDIR): a worker killed elsewhere within the hour (the crash
    // tests, another run) may have left a file there. This test's tries must leave none.
    const before = new Set(await readdir(DOWNLOADS_DIR).catch(() => [] as string[]))
    receiver.route('/wide.jpg', { body: await jpeg(4000, 3000) })
    receiver.route('/huge.bin', { bodyBytes: 15 * 1024 * 1024 + 1 })
    receiver.route('/text.jpg', { body: 'esto no es una imagen' })
    receiver.route('/missing.jpg', { status: 404 })
    const { photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/wide.jpg'),
      receiver.url('/huge.bin'),
      receiver.url('/text.jpg'),
      receiver.url('/missing.jpg'),
    ])
    assert.deepEqual(
      photos.map((photo) => photo.Estado),
      ['Lista', 'Rechazada', 'Rechazada', 'Rechazada']
    )
    assert.deepEqual([photos[0].Ancho, photos[0].Alto], [1920, 1440])
    const served = await fetch(photos[0].Url)
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata()
    assert.deepEqual([meta.width, meta.height], [1920, 1440])
    // A try removes its file just after it settles the photo: the folder empties within moments.
    const left = await until(
      async () => (await readdir(DOWNLOADS_DIR)).filter((name) => !before.has(name)),
      (names) => names.length === 0,
      5_000
    )
    assert.deepEqual(left, [])
  })

  test('redirects: a chain of 3 is followed, a chain of 4 is refused', async ({
    client,
    assert,
  }) => {
    receiver.route('/final.jpg', { body: await jpeg(800, 600) })
    for (const [from, to] of [
      ['/r1', '/r2'],
      ['/r2', '/r3'],
      ['/r3', '/final.jpg'],
      ['/s0', '/r1'],
    ]) {
      receiver.route(from, { status: 302, headers: { location: receiver.url(to) } })
    }
    const { photos } = await listingWithPhotos(client, ctx, [
      receiver.url('/r1'),
      receiver.url('/s0'),
    ])
    assert.equal(photos[0].Estado, 'Lista')
    assert.equal(photos[1].Estado, 'Rechazada')
    assert.equal(photos[1].Motivo, 'La URL de la foto redirige más de 3 veces.')
  })

  test('a private address is refused while OUTBOUND_ALLOW_PRIVATE is off', async ({
    client,
    assert,
  }) => {
    receiver.route('/private.jpg', { body: await jpeg(800, 600) })
    settings.outboundAllowPrivate = false
    try {
      // A private IP literal is refused when configured (ssrf_config.spec.ts); a name resolving to one, at download time.
      const { photos } = await listingWithPhotos(client, ctx, [
        `http://localhost:${receiver.port}/private.jpg`,
      ])
      assert.equal(photos[0].Estado, 'Rechazada')
      assert.equal(photos[0].Motivo, 'La URL de la foto apunta a una dirección que no es pública.')
    } finally {
      settings.outboundAllowPrivate = true
    }
  })

  test('a 404 source is Rechazada with the status in the reason', async ({ client, assert }) => {
    receiver.route('/gone.jpg', { status: 404, body: 'no' })
    const { photos } = await listingWithPhotos(client, ctx, [receiver.url('/gone.jpg')])
    assert.equal(photos[0].Motivo, 'La URL de la foto respondió con el estado HTTP 404.')
  })

  test('Fotos of the same length are ignored; a different length replaces them in order, keeping processed ones', async ({
    client,
    assert,
  }) => {
    receiver.route('/p1.jpg', { body: await jpeg(1000, 600) })
    receiver.route('/p2.jpg', { body: await jpeg(1100, 600) })
    receiver.route('/p3.jpg', { body: await jpeg(1200, 600) })
    const { href } = await listingWithPhotos(client, ctx, [
      receiver.url('/p1.jpg'),
      receiver.url('/p2.jpg'),
    ])
    const fetchedBefore = receiver.requests.filter((request) => request.path === '/p1.jpg').length

    const same = await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ Fotos: [receiver.url('/p3.jpg'), receiver.url('/p3.jpg')] })
    same.assertStatus(200)
    // Ignored by the spec's count rule, and said so (docs/design.md §24).
    assert.deepEqual(
      same.body().Avisos.map((aviso: any) => aviso.Campo),
      ['Fotos']
    )
    // The URLs the listing has, as sent: nothing ignored, nothing to say.
    const sent = await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ Fotos: [receiver.url('/p1.jpg'), receiver.url('/p2.jpg')] })
    sent.assertStatus(200)
    assert.notProperty(sent.body(), 'Avisos')
    const unchanged = (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()._entries
    assert.deepEqual(
      unchanged.map((photo: any) => photo.Origen),
      [receiver.url('/p1.jpg'), receiver.url('/p2.jpg')]
    )

    await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ Fotos: [receiver.url('/p3.jpg'), receiver.url('/p1.jpg'), receiver.url('/p2.jpg')] })
    const photos = await photosWhen(client, ctx, href, (entry) => entry.Estado === 'Lista')
    assert.deepEqual(
      photos.map((photo: any) => photo.Ancho),
      [1200, 1000, 1100]
    )
    // p1 was not downloaded again.
    assert.equal(
      receiver.requests.filter((request) => request.path === '/p1.jpg').length,
      fetchedBefore
    )
    const listing = await client.get(href).bearerToken(ctx.token)
    assert.deepEqual(
      listing.body().Fotos,
      photos.map((photo: any) => photo.Url)
    )

    // A used vehicle cannot drop all its photos.
    const none = await client.put(href).bearerToken(ctx.token).json({ Fotos: [] })
    none.assertStatus(400)
    assertErrorKey(assert, none.body(), 'Fotos')
  })

  test('GET → PUT of a listing with 2 rejected photos beside 2 processed ones keeps all 4 and the ETag', async ({
    client,
    assert,
  }) => {
    receiver.route('/rt1.jpg', { body: await jpeg(1000, 600) })
    receiver.route('/rt2.jpg', { body: await jpeg(1100, 600) })
    receiver.route('/rt-gone.jpg', { status: 404, body: 'no' })
    receiver.route('/rt-small.jpg', { body: await jpeg(320, 200) })
    const sources = ['/rt1.jpg', '/rt-gone.jpg', '/rt2.jpg', '/rt-small.jpg'].map((path) =>
      receiver.url(path)
    )
    const { href } = await listingWithPhotos(client, ctx, sources)
    const read = await client.get(href).bearerToken(ctx.token)
    assert.lengthOf(read.body().Fotos, 2)

    const put = await client
      .put(href)
      .bearerToken(ctx.token)
      .header('If-Match', read.header('etag')!)
      .json(read.body())
    put.assertStatus(200)
    assert.equal(put.header('etag'), read.header('etag'))
    assert.notProperty(put.body(), 'Avisos')
    const photos = (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()._entries
    assert.deepEqual(
      photos.map((photo: any) => [photo.Origen, photo.Estado]),
      [
        [sources[0], 'Lista'],
        [sources[1], 'Rechazada'],
        [sources[2], 'Lista'],
        [sources[3], 'Rechazada'],
      ]
    )

    // The other side: a list of another length than the 4 replaces them.
    const fewer = await client
      .put(href)
      .bearerToken(ctx.token)
      .json({ Fotos: [sources[0]] })
    fewer.assertStatus(200)
    assert.notEqual(fewer.header('etag'), read.header('etag'))
    const left = (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()._entries
    assert.deepEqual(
      left.map((photo: any) => photo.Origen),
      [sources[0]]
    )
  })

  test('the job is idempotent: a second run of a settled photo changes nothing', async ({
    client,
    assert,
  }) => {
    receiver.route('/once.jpg', { body: await jpeg(700, 400) })
    const { href } = await listingWithPhotos(client, ctx, [receiver.url('/once.jpg')])
    const before = await client.get(href).bearerToken(ctx.token)
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const photo = await db
      .from('listing_photos')
      .where('source_url', receiver.url('/once.jpg'))
      .orderBy('id', 'desc')
      .first()
    const runner = await app.container.make(JobRunner)
    await runner.runNow('photos.fetch', { photoId: photo.id })
    await runner.runNow('photos.fetch', { photoId: 999_999_999 })
    const after = await client.get(href).bearerToken(ctx.token)
    assert.equal(after.header('etag'), before.header('etag'))
  })

  test('passing trouble (5xx) is retried by the queue; the last try records the reason', async ({
    client,
    assert,
  }) => {
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const { default: FetchPhoto } = await import('#listings/jobs/fetch_photo')
    const body = listingBody({
      VersionYear: thisYear() - 2,
      Kilometraje: 30000,
      Fotos: [receiver.url('/flaky.jpg'), receiver.url('/down.jpg')],
    })
    // Both photos answer 503 until told otherwise; the queued jobs may run meanwhile and must only retry.
    receiver.route('/flaky.jpg', { status: 503 })
    receiver.route('/down.jpg', { status: 503 })
    ;(await client.post(ctx.base).bearerToken(ctx.token).json(body)).assertStatus(201)
    const photos = await db
      .from('listing_photos')
      .whereIn('source_url', [receiver.url('/flaky.jpg'), receiver.url('/down.jpg')])
      .orderBy('position')
    const handler = await app.container.make(FetchPhoto)
    await assert.rejects(() =>
      handler.handle({ photoId: photos[0].id }, { id: 't', name: 'photos.fetch', retryCount: 0 })
    )
    receiver.route('/flaky.jpg', { body: await jpeg(800, 600) })
    await handler.handle(
      { photoId: photos[0].id },
      { id: 't', name: 'photos.fetch', retryCount: 1 }
    )
    await handler.handle(
      { photoId: photos[1].id },
      { id: 't', name: 'photos.fetch', retryCount: 3 }
    )
    const entries = (
      await client.get(`${ctx.href(body.ExternalId)}/fotos`).bearerToken(ctx.token)
    ).body()._entries
    assert.deepEqual(
      entries.map((entry: any) => entry.Estado),
      ['Lista', 'Rechazada']
    )
    assert.equal(entries[1].Motivo, 'La URL de la foto respondió con el estado HTTP 503.')
  })
})
