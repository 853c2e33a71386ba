import { test } from '@japa/runner'
import { inject } from '@adonisjs/core'
import app from '@adonisjs/core/services/app'
import { buildOnce } from '#core/build_once'
import ShowListing from '#listings/services/show_listing'
import ListingStore from '#listings/stores/listing_store'
import AuthenticateMiddleware from '#apps/middleware/authenticate_middleware'

class Store {}

/** A loader as a module's boot passes it: the class is its file's default export. */
const loaderOf = (binding: abstract new (...args: any[]) => object) => async () => ({
  default: binding,
})

@inject()
class Action {
  constructor(public store: Store) {}
}

@inject()
class Elsewhere {
  constructor(public store: Store) {}
}

test.group('buildOnce: stateless classes the container builds once', () => {
  test('a listed class: its first instance (with its collaborators) serves every later make', async ({
    assert,
  }) => {
    await buildOnce(loaderOf(Action))
    const first = await app.container.make(Action)
    const second = await app.container.make(Action)
    assert.strictEqual(second, first)
    assert.strictEqual(second.store, first.store)
    // Its collaborators themselves are not kept: only what is listed is.
    assert.notStrictEqual(await app.container.make(Store), first.store)
    assert.notStrictEqual(await app.container.make(Elsewhere), await app.container.make(Elsewhere))
  })

  test('a swap still wins, and what was swapped in is never kept', async ({ assert }) => {
    class Fake extends Action {}
    class Swapped {}
    @inject()
    class Listed {
      constructor(public store: Store) {}
    }
    await buildOnce(loaderOf(Listed), loaderOf(Swapped))

    app.container.swap(Listed, () => new Fake(new Store()))
    assert.instanceOf(await app.container.make(Listed), Fake)
    app.container.restore(Listed)
    const real = await app.container.make(Listed)
    assert.notInstanceOf(real, Fake)
    assert.strictEqual(await app.container.make(Listed), real)

    const literal = { fake: true }
    app.container.swap(Swapped, () => literal as any)
    assert.strictEqual(await app.container.make(Swapped), literal)
    app.container.restore(Swapped)
    assert.instanceOf(await app.container.make(Swapped), Swapped)
  })

  test('the app lists its request path: the same middleware and action on every request', async ({
    assert,
  }) => {
    assert.strictEqual(
      await app.container.make(AuthenticateMiddleware),
      await app.container.make(AuthenticateMiddleware)
    )
    assert.strictEqual(await app.container.make(ShowListing), await app.container.make(ShowListing))
    // A store on its own is not listed: built anew, as any unlisted class.
    assert.notStrictEqual(
      await app.container.make(ListingStore),
      await app.container.make(ListingStore)
    )
  })

  test('a worker or a command imports nothing and keeps nothing', async ({ assert }) => {
    @inject()
    class WorkerSide {
      constructor(public store: Store) {}
    }
    let imported = 0
    const environment = app.getEnvironment
    app.getEnvironment = () => 'console'
    try {
      await buildOnce(async () => {
        imported++
        return { default: WorkerSide }
      })
    } finally {
      app.getEnvironment = environment
    }
    assert.equal(imported, 0)
    assert.notStrictEqual(
      await app.container.make(WorkerSide),
      await app.container.make(WorkerSide)
    )
  })
})
