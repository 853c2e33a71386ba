import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import ListingDirectory from '#listings/services/listing_directory'
import ReassignOperator from '#listings/services/reassign_operator'
import { createListing } from '#tests/helpers/listings'
import { setup, thisYear } from './support.js'

test.group('Listings: services for other modules', () => {
  test('ListingDirectory.forInquiry: the snapshot by agency and ExternalId (any case), null otherwise', async ({
    assert,
  }) => {
    const ctx = await setup()
    const created = await createListing(ctx.app, ctx.fixture, {
      RefStock: 'S-9',
      Precio: { Moneda: 'ARS', Importe: 1234.5 },
    })
    const directory = await app.container.make(ListingDirectory)
    const snapshot = await directory.forInquiry(
      ctx.fixture.agency.id,
      created.externalId.toUpperCase()
    )
    assert.deepInclude(snapshot!, {
      id: created.id,
      appId: ctx.app.id,
      agencyId: ctx.fixture.agency.id,
      externalId: created.externalId,
      refStock: 'S-9',
      state: 'active',
      brand: 'Toyota',
      model: 'Corolla',
      version: '2.0 XEI CVT',
      versionYear: thisYear(),
      mileage: 0,
      condition: 'Nuevo',
      bodyType: 'Sedán',
      operatorId: ctx.fixture.admin.id,
    })
    assert.deepEqual(snapshot!.price, { currency: 'ARS', amount: 1234.5 })
    assert.isNull(snapshot!.downPayment)
    assert.isNull(await directory.forInquiry(ctx.fixture.agency.id, 'nope-nope'))
    assert.isNull(await directory.forInquiry(ctx.fixture.agency.id + 100000, created.externalId))
  })

  test('ListingDirectory.bySlug: the buyers page view; archived listings still found (the page answers 410)', async ({
    assert,
  }) => {
    const ctx = await setup()
    const created = await createListing(ctx.app, ctx.fixture, { Archivada: true })
    const view = await (await app.container.make(ListingDirectory)).bySlug(created.slug)
    assert.equal(view!.state, 'archived')
    assert.equal(view!.title, `Toyota Corolla 2.0 XEI CVT ${thisYear()}`)
    assert.deepEqual(view!.photos, [])
    assert.equal(view!.phone, ctx.fixture.admin.phones[0])
    assert.isNull(await (await app.container.make(ListingDirectory)).bySlug('no-such-slug'))
  })

  test('ListingDirectory.usage counts the active listings per exposure level', async ({
    assert,
  }) => {
    const ctx = await setup({ plan: { capacity: 10, alta: 1, media: 5, baja: 5 } })
    await createListing(ctx.app, ctx.fixture)
    await createListing(ctx.app, ctx.fixture)
    await createListing(ctx.app, ctx.fixture, { Activa: false })
    assert.deepEqual(
      await (await app.container.make(ListingDirectory)).usage(ctx.fixture.agency.id),
      {
        high: 1,
        medium: 1,
        low: 0,
      }
    )
  })

  test('createListing helper: Activa false gives a suspended listing', async ({ assert }) => {
    const ctx = await setup()
    const created = await createListing(ctx.app, ctx.fixture, { Activa: false })
    assert.equal(created.state, 'suspended')
  })

  test('ReassignOperator moves the listings, their e-mail and phone, and bumps the revision', async ({
    client,
    assert,
  }) => {
    const from = `de.${Date.now()}@example.com`
    const to = `a.${Date.now()}@example.com`
    const ctx = await setup({
      collaborators: [
        { email: from, phones: ['011 1111-1111'] },
        { email: to, phones: ['011 2222-2222'] },
      ],
    })
    const [source, target] = ctx.fixture.collaborators
    const moved = await createListing(ctx.app, ctx.fixture, { OperadorResponsable: from })
    const stays = await createListing(ctx.app, ctx.fixture)
    const before = (await client.get(ctx.href(moved.externalId)).bearerToken(ctx.token)).header(
      'etag'
    )

    const result = await db.transaction(async (trx) =>
      (await app.container.make(ReassignOperator)).execute(
        ctx.fixture.agency.id,
        source.id,
        target.id,
        trx
      )
    )
    assert.deepEqual(result, { ok: true, value: 1 })

    const after = await client.get(ctx.href(moved.externalId)).bearerToken(ctx.token)
    assert.include(after.body(), { OperadorResponsable: to, Telefono: '011 2222-2222' })
    assert.notEqual(after.header('etag'), before)
    const untouched = await client.get(ctx.href(stays.externalId)).bearerToken(ctx.token)
    assert.equal(untouched.body().OperadorResponsable, ctx.fixture.admin.email)

    const unknown = await db.transaction(async (trx) =>
      (await app.container.make(ReassignOperator)).execute(
        ctx.fixture.agency.id,
        target.id,
        999_999,
        trx
      )
    )
    assert.isFalse(unknown.ok)
  })
})
