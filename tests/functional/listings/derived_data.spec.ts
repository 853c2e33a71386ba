/*
 * Derived data under concurrency (docs/design.md §13): a listing's photo cache
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
import { createListing } from '#tests/helpers/listings'
import ListingWriters from '#listings/services/listing_writers'
import { toRecord } from '#listings/services/listing_record'
import { listingOfRow } from '#listings/stores/listing_store'
import { uniqueEmail } from '#tests/helpers/agencies'
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
  const photos: { id: number }[] = await db
    .from('listing_photos')
    .where('listing_id', listingId)
    .select('id')
  const handler = await app.container.make(FetchPhoto)
  await Promise.all(
    photos.map((photo) =>
      handler.handle(
        { photoId: photo.id },
        { id: `race-${photo.id}`, name: 'photos.fetch', retryCount: 0 }
      )
    )
  )
}

async function settled(listingId: number) {
  return until(
    () =>
      db
        .from('listing_photos')
        .where('listing_id', listingId)
        .where('state', 'pending')
        .count('* as total')
        .first(),
    (row) => Number(row.total) === 0
  )
}

test.group('Listings: derived data under concurrency (docs/design.md §13)', (group) => {
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

  test('photos of one listing settling at the same instant all appear in Fotos', async ({
    client,
    assert,
  }) => {
    for (let round = 0; round < ROUNDS; round++) {
      const urls = barrierPhotos(receiver, `${Date.now()}-${round}`, PHOTOS, jpeg)
      const body = listingBody({ VersionYear: thisYear() - 2, Kilometraje: 30000, Fotos: urls })
      const created = await client.post(ctx.base).bearerToken(ctx.token).json(body)
      created.assertStatus(201)
      const href = ctx.href(body.ExternalId)
      const { id } = await db
        .from('listings')
        .where('app_id', ctx.app.id)
        .where('external_id', body.ExternalId)
        .first()

      await settleAllAtOnce(id)
      await settled(id)

      const photos = (await client.get(`${href}/fotos`).bearerToken(ctx.token)).body()
        ._entries as any[]
      assert.deepEqual(
        photos.map((photo) => photo.Estado),
        Array(PHOTOS).fill('Lista'),
        `round ${round}`
      )
      const listing = await client.get(href).bearerToken(ctx.token)
      assert.deepEqual(
        listing.body().Fotos,
        photos.map((photo) => photo.Url),
        `round ${round}: every ready photo, in order`
      )
      const row = await db
        .from('listings')
        .where('id', id)
        .select('photo_count', 'revision')
        .first()
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
    const body = listingBody({
      VersionYear: thisYear() - 2,
      Kilometraje: 30000,
      Exposicion: 'Baja',
      Fotos: urls,
    })
    ;(await client.post(ctx.base).bearerToken(ctx.token).json(body)).assertStatus(201)
    const href = ctx.href(body.ExternalId)
    const { id } = await db
      .from('listings')
      .where('app_id', ctx.app.id)
      .where('external_id', body.ExternalId)
      .first()

    // Hold the agency's activation lock (the listings module's advisory lock, namespace 300): a PUT
    // that changes the exposure then waits there while already holding its listing row.
    const holder = await db.transaction()
    await holder.rawQuery('select pg_advisory_xact_lock(300, ?)', [ctx.fixture.agency.id])
    // (the api client sends a request when it is awaited: Promise.resolve starts it now)
    const put = Promise.resolve(
      client
        .put(href)
        .bearerToken(ctx.token)
        .json({ Exposicion: 'Media', Fotos: [...urls, receiver.url('/race-extra.jpg')] })
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
    assert.equal(
      await until(
        () => waitingOn('advisory'),
        (total) => total >= 1
      ),
      1
    )
    // Both photos settle now: each must wait for the PUT's listing row.
    const settling = settleAllAtOnce(id).then(
      () => null,
      (error) => error
    )
    assert.isAtLeast(
      await until(
        () => waitingOn('transactionid'),
        (total) => total >= 1
      ),
      1
    )
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
    const listing = await db
      .from('listings')
      .where('id', id)
      .select('photo_keys', 'photo_count')
      .first()
    assert.equal(listing.photo_count, 3)
    assert.lengthOf(rows, 3)
    assert.deepEqual(
      listing.photo_keys,
      rows.filter((row) => row.state === 'ready').map((row) => row.storage_key)
    )
  }).timeout(60_000)
})

/** The stored row of the agency's listing `externalId`. */
function listingRow(ctx: Ctx, externalId: string) {
  return db
    .from('listings')
    .where('agency_id', ctx.fixture.agency.id)
    .whereRaw('lower(external_id) = lower(?)', [externalId])
    .first()
}

test.group('Listings: revision and plan usage under concurrency (docs/design.md §13)', () => {
  const revisionOf = (etag: string) => Number(/\.(\d+)"$/.exec(etag)![1])

  test('10 concurrent PUTs: ten revisions, one body per ETag; with one If-Match: one 200, nine 412', async ({
    client,
    assert,
  }) => {
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const before = revisionOf((await client.get(href).bearerToken(ctx.token)).header('etag')!)

    const colours = Array.from({ length: 10 }, (_, index) => `Color ${index}`)
    const puts = await Promise.all(
      colours.map((colour) => client.put(href).bearerToken(ctx.token).json({ Color: colour }))
    )
    assert.deepEqual(
      puts.map((response) => response.status()),
      Array(10).fill(200)
    )
    const revisions = puts
      .map((response) => revisionOf(response.header('etag')!))
      .sort((a, b) => a - b)
    assert.deepEqual(
      revisions,
      colours.map((_, index) => before + 1 + index),
      'one distinct revision per write'
    )
    const latest = await client.get(href).bearerToken(ctx.token)
    const winner = puts.find((response) => response.header('etag') === latest.header('etag'))!
    assert.equal(
      latest.body().Color,
      winner.body().Color,
      'the current ETag names the current body'
    )

    const etag = latest.header('etag')!
    const guarded = await Promise.all(
      colours.map((colour) =>
        client
          .put(href)
          .bearerToken(ctx.token)
          .header('If-Match', etag)
          .json({ Color: `${colour}!` })
      )
    )
    assert.deepEqual(guarded.map((response) => response.status()).sort(), [
      200,
      ...Array(9).fill(412),
    ])
    assert.equal(
      revisionOf((await client.get(href).bearerToken(ctx.token)).header('etag')!),
      before + 11
    )
  })

  test('20 concurrent PUTs while another writer changes the row: no write lost, each answer its own, stale If-Match never applied', async ({
    client,
    assert,
  }) => {
    // A queued PUT starts from the row the PUT before it wrote; the other
    // writer (as the photo job or a suspension in another process would)
    // makes that row stale in between.
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const first = await client.get(href).bearerToken(ctx.token)
    const before = revisionOf(first.header('etag')!)
    const staleEtag = first.header('etag')!
    const row = await listingRow(ctx, listing.externalId)

    const colours = Array.from({ length: 20 }, (_, index) => `Color ${index}`)
    const [puts, guarded] = await Promise.all([
      Promise.all(
        colours.map((colour) => client.put(href).bearerToken(ctx.token).json({ Color: colour }))
      ),
      Promise.all(
        [0, 1, 2].map((index) =>
          client
            .put(href)
            .bearerToken(ctx.token)
            .header('If-Match', staleEtag)
            .json({ Color: `Guarded ${index}` })
        )
      ),
      (async () => {
        for (let index = 0; index < 20; index++) {
          await db
            .from('listings')
            .where('id', row.id)
            .update({ colour: `Other ${index}`, revision: db.raw('revision + 1') })
          await new Promise((resolve) => setImmediate(resolve))
        }
      })(),
    ])

    assert.deepEqual(
      puts.map((response) => response.status()),
      Array(20).fill(200)
    )
    puts.forEach((response, index) => assert.equal(response.body().Color, colours[index]))
    const revisions = new Set(puts.map((response) => revisionOf(response.header('etag')!)))
    assert.equal(revisions.size, 20, 'one distinct revision per write')
    // The first of the guarded may pass only if it ran before any other write.
    for (const response of guarded) {
      if (response.status() === 200) assert.equal(revisionOf(response.header('etag')!), before + 1)
      else assert.equal(response.status(), 412)
    }
    const applied = guarded.filter((response) => response.status() === 200).length
    const latest = await db.from('listings').where('id', row.id).select('revision').first()
    assert.equal(latest.revision, before + 20 + 20 + applied, 'every write counted once')
  })

  test('a stale row handed to the next edit never decides its answer', async ({
    client,
    assert,
  }) => {
    // The row a PUT hands to the one queued behind it can be stale by then
    // (another process wrote in between). Planted here, so each case is exact.
    const ctx = await setup()
    const listing = await createListing(ctx.app, ctx.fixture)
    const href = ctx.href(listing.externalId)
    const writers = await app.container.make(ListingWriters)
    const key = writers.key(ctx.app.id, ctx.fixture.agency.id, listing.externalId)
    const plantStale = async () => {
      const row = await listingRow(ctx, listing.externalId)
      const stale = toRecord(listingOfRow(row))
      stale.listing.revision -= 1
      stale.listing.colour = 'Stale'
      stale.listing.state = 'suspended'
      writers.hand(key, stale)
      return row
    }

    // If-Match of the current revision: the stale guess's revision differs, yet 200.
    const current = await client.get(href).bearerToken(ctx.token)
    await plantStale()
    const matched = await client
      .put(href)
      .bearerToken(ctx.token)
      .header('If-Match', current.header('etag')!)
      .json({ Color: 'Fresh' })
    assert.equal(matched.status(), 200, JSON.stringify(matched.body()))
    assert.equal(revisionOf(matched.header('etag')!), revisionOf(current.header('etag')!) + 1)
    assert.isFalse(writers.holds(key), 'a handed row is used once')

    // No If-Match: the stale guess loses the revision-guarded UPDATE, the edit still applies once.
    const before = await plantStale()
    const plain = await client
      .patch(href)
      .bearerToken(ctx.token)
      .json({ Precio: { Moneda: 'USD', Importe: 123456 } })
    assert.equal(plain.status(), 200, JSON.stringify(plain.body()))
    const after = await db.from('listings').where('id', before.id).first()
    assert.equal(after.revision, before.revision + 1)
    assert.equal(after.colour, 'Fresh')
    assert.equal(after.state, 'active')

    // A state change does not answer from a handed row: the listing really is suspended.
    await plantStale()
    const suspended = await client.patch(`${href}/suspender`).bearerToken(ctx.token)
    assert.equal(suspended.status(), 200)
    const row = await db.from('listings').where('id', before.id).select('state', 'revision').first()
    assert.equal(row.state, 'suspended')
    assert.equal(row.revision, before.revision + 2)
    writers.forget(key)
  })

  test('capacity 4 with 3 active: 10 concurrent activations of every kind → exactly one succeeds, nine 409', async ({
    client,
    assert,
  }) => {
    for (let round = 0; round < 2; round++) {
      const ctx = await setup({ plan: { capacity: 4, alta: 4, media: 4, baja: 4 } })
      for (let index = 0; index < 3; index++) await createListing(ctx.app, ctx.fixture)
      const suspended = await Promise.all(
        Array.from({ length: 7 }, () => createListing(ctx.app, ctx.fixture, { Activa: false }))
      )
      const hrefs = suspended.map((listing) => ctx.href(listing.externalId))
      const responses = await Promise.all([
        ...[0, 1, 2].map(() => client.post(ctx.base).bearerToken(ctx.token).json(listingBody())),
        ...hrefs.slice(0, 3).map((href) => client.patch(`${href}/activar`).bearerToken(ctx.token)),
        ...hrefs
          .slice(3, 5)
          .map((href) => client.put(href).bearerToken(ctx.token).json({ Activa: true })),
        ...hrefs
          .slice(5, 7)
          .map((href) => client.patch(href).bearerToken(ctx.token).json({ Activa: true })),
      ])
      const statuses = responses.map((response) => response.status())
      assert.lengthOf(
        statuses.filter((status) => status === 200 || status === 201),
        1,
        `round ${round}: ${statuses}`
      )
      assert.lengthOf(
        statuses.filter((status) => status === 409),
        9,
        `round ${round}: ${statuses}`
      )
      const active = await db
        .from('listings')
        .where('agency_id', ctx.fixture.agency.id)
        .where('state', 'active')
        .count('* as total')
      assert.equal(Number(active[0].total), 4)
    }
  })

  test('one Alta place left: 10 concurrent PUTs asking for Alta → one gets it, nine fall back to Media', async ({
    client,
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 20, alta: 1, media: 20, baja: 20 } })
    const listings = await Promise.all(
      Array.from({ length: 10 }, () => createListing(ctx.app, ctx.fixture, { Exposicion: 'Media' }))
    )
    const responses = await Promise.all(
      listings.map((listing) =>
        client.put(ctx.href(listing.externalId)).bearerToken(ctx.token).json({ Exposicion: 'Alta' })
      )
    )
    assert.deepEqual(
      responses.map((response) => response.status()),
      Array(10).fill(200)
    )
    const levels = responses.map((response) => response.body().Exposicion).sort()
    assert.deepEqual(levels, ['Alta', ...Array(9).fill('Media')])
    const high = await db
      .from('listings')
      .where('agency_id', ctx.fixture.agency.id)
      .where('exposure', 'high')
      .count('* as total')
    assert.equal(Number(high[0].total), 1)
  })
})

test.group('Listings: the responsible operator while a colleague is detached', () => {
  test('a PUT or POST naming a collaborator who is being detached never leaves the listing with that person', async ({
    client,
    assert,
  }) => {
    const leaving = uniqueEmail('leaving')
    const staying = uniqueEmail('staying')
    const ctx = await setup({ collaborators: [{ email: leaving }, { email: staying }] })
    const held = await createListing(ctx.app, ctx.fixture, { OperadorResponsable: leaving })
    const listing = await createListing(ctx.app, ctx.fixture)
    const waiting = (type: string) =>
      db
        .from('pg_stat_activity')
        .where('wait_event_type', 'Lock')
        .where('wait_event', type)
        .count('* as total')
        .first()
        .then((row) => Number(row.total))

    // The detach is held half-way (it has the agency's memberships, and waits for one of the
    // leaving person's listings); meanwhile a PUT names the leaving person as responsible.
    const holder = await db.transaction()
    await holder.from('listings').where('id', held.id).forUpdate().select('id')
    const detach = Promise.resolve(
      client
        .patch(`/v3/operadores/${ctx.adminMail}/desasociar`)
        .qs({ operador: leaving, operadorDestino: staying })
        .bearerToken(ctx.token)
    )
    assert.isAtLeast(
      await until(
        () => waiting('transactionid'),
        (total) => total >= 1
      ),
      1
    )
    const put = Promise.resolve(
      client
        .put(ctx.href(listing.externalId))
        .bearerToken(ctx.token)
        .json({ OperadorResponsable: leaving })
    )
    const body = listingBody({ OperadorResponsable: leaving })
    const create = Promise.resolve(client.post(ctx.base).bearerToken(ctx.token).json(body))
    await until(
      () => waiting('advisory'),
      (total) => total >= 2,
      3_000
    )
    await holder.commit()

    const [detached, edited, created] = await Promise.all([detach, put, create])
    detached.assertStatus(204)
    edited.assertStatus(200)
    created.assertStatus(201)
    const members = (await client.get(`/v3/operadores/${ctx.adminMail}`).bearerToken(ctx.token))
      .body()
      ._entries.map((entry: any) => entry.Email)
    assert.notInclude(members, leaving)
    for (const externalId of [listing.externalId, body.ExternalId]) {
      const responsible = (await client.get(ctx.href(externalId)).bearerToken(ctx.token)).body()
        .OperadorResponsable
      assert.include(
        members,
        responsible,
        `${externalId}: the responsible operator is a member of the agency`
      )
    }
  }).timeout(30_000)
})
