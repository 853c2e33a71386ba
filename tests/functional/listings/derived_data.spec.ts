/*
 * Derived data under concurrency (DESIGN.md §13): a listing's photo cache
 * (`photo_keys`, `photo_count`), its revision and the plan's usage stay right
 * when writers really run at the same instant.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import JobRunner from '#core/jobs/runner'
import FetchPhoto from '#listings/jobs/fetch_photo'
import { carPhoto } from '#tests/helpers/car_photos'
import { startReceiver, type Receiver } from '#tests/helpers/receiver'
import { until } from '#tests/helpers/until'
import { listingBody, setup, thisYear } from './support.js'

type Ctx = Awaited<ReturnType<typeof setup>>

const PHOTOS = 10
const ROUNDS = 3

/**
 * Photo URLs whose answers are held until all `count` of the round were
 * asked for, then released together: their jobs finish at the same instant.
 * Later requests for the same URLs (a worker racing the test) pass at once.
 */
function barrierPhotos(receiver: Receiver, round: string, count: number, jpeg: Buffer) {
  let arrived = 0
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const urls = Array.from({ length: count }, (_, index) => {
    const path = `/race-${round}/${index}.jpg`
    receiver.route(path, async () => {
      if (++arrived >= count) release()
      await released
      return { status: 200, headers: { 'content-type': 'image/jpeg' }, body: jpeg }
    })
    return receiver.url(path)
  })
  return Object.assign(urls, { released })
}

/** Runs the `photos.fetch` handler of every photo of the listing at once, in this process. */
async function settleAllAtOnce(listingId: number) {
  const photos: { id: number }[] = await db.from('listing_photos').where('listing_id', listingId).select('id')
  await Promise.all(
    photos.map((photo) => new FetchPhoto().handle({ photoId: photo.id }, { id: `race-${photo.id}`, name: 'photos.fetch', retryCount: 0 }))
  )
}

async function settled(listingId: number) {
  return until(
    () => db.from('listing_photos').where('listing_id', listingId).where('state', 'pending').count('* as total').first(),
    (row) => Number(row.total) === 0
  )
}

test.group('Listings: derived data under concurrency (DESIGN.md §13)', (group) => {
  let receiver: Receiver
  let ctx: Ctx
  let jpeg: Buffer
  group.setup(async () => {
    receiver = await startReceiver()
    ctx = await setup({ plan: { capacity: 500, alta: 500, media: 500, baja: 500 } })
    jpeg = await carPhoto('#a33', 1, 960, 600)
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['photos.fetch'] })
    return () => receiver.close()
  })

  test('photos of one listing settling at the same instant all appear in Fotos', async ({ client, assert }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const urls = barrierPhotos(receiver, `${Date.now()}-${round}`, PHOTOS, jpeg)
      const body = listingBody({ VersionYear: thisYear() - 2, Kilometraje: 30000, Fotos: urls })
      const created = await client.post(ctx.base).bearerToken(ctx.token).json(body)
      created.assertStatus(201)
      const href = ctx.href(body.ExternalId)
      const { id } = await db.from('listings').where('app_id', ctx.app.id).where('external_id', body.ExternalId).first()

      await settleAllAtOnce(id)
      await settled(id)

      const photos = (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()._entries as any[]
      assert.deepEqual(photos.map((photo) => photo.Estado), Array(PHOTOS).fill('Lista'), `round ${round}`)
      const listing = await client.get(href).bearerToken(ctx.token)
      assert.deepEqual(listing.body().Fotos, photos.map((photo) => photo.Url), `round ${round}: every ready photo, in order`)
      const row = await db.from('listings').where('id', id).select('photo_count', 'revision').first()
      assert.equal(row.photo_count, PHOTOS)
      // One revision per settled photo, on top of the creation's.
      assert.equal(row.revision, 1 + PHOTOS, `round ${round}: one revision bump per photo`)
    }
  }).timeout(120_000)

  test('a PUT replacing the photos while one settles: no deadlock, 200, and the cache matches the photo rows', async ({
    client,
    assert,
  }) => {
    const urls = barrierPhotos(receiver, `${Date.now()}-put`, 2, jpeg)
    const body = listingBody({ VersionYear: thisYear() - 2, Kilometraje: 30000, Exposicion: 'Baja', Fotos: urls })
    ;(await client.post(ctx.base).bearerToken(ctx.token).json(body)).assertStatus(201)
    const href = ctx.href(body.ExternalId)
    const { id } = await db.from('listings').where('app_id', ctx.app.id).where('external_id', body.ExternalId).first()

    // Hold the agency's activation lock (the listings module's advisory lock, namespace 300): a PUT
    // that changes the exposure then waits there while already holding its listing row.
    const holder = await db.transaction()
    await holder.rawQuery('select pg_advisory_xact_lock(300, ?)', [ctx.fixture.agency.id])
    // (the api client sends a request when it is awaited: Promise.resolve starts it now)
    const put = Promise.resolve(
      client.put(href).bearerToken(ctx.token).json({ Exposicion: 'Media', Fotos: [...urls, receiver.url('/race-extra.jpg')] })
    )
    const waitingOn = async (type: string) =>
      Number(
        (
          await db
            .from('pg_stat_activity')
            .where('wait_event_type', 'Lock')
            .where('wait_event', type)
            .count('* as total')
            .first()
        ).total
      )
    assert.equal(await until(() => waitingOn('advisory'), (total) => total >= 1), 1)
    // Both photos settle now: each must wait for the PUT's listing row.
    const settling = settleAllAtOnce(id).then(
      () => null,
      (error) => error
    )
    assert.isAtLeast(await until(() => waitingOn('transactionid'), (total) => total >= 1), 1)
    await holder.commit()

    const [response, failure] = await Promise.all([put, settling])
    response.assertStatus(200)
    assert.isNull(failure, String(failure))
    await settled(id)
    const rows: { storage_key: string | null; state: string }[] = await db
      .from('listing_photos')
      .where('listing_id', id)
      .orderBy('position')
      .select('storage_key', 'state')
    const listing = await db.from('listings').where('id', id).select('photo_keys', 'photo_count').first()
    assert.equal(listing.photo_count, 3)
    assert.lengthOf(rows, 3)
    assert.deepEqual(listing.photo_keys, rows.filter((row) => row.state === 'ready').map((row) => row.storage_key))
  }).timeout(60_000)
})
