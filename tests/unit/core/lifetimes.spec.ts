import { test } from '@japa/runner'
import { inject } from '@adonisjs/core'
import { Container } from '@adonisjs/core/container'
import { HttpContext } from '@adonisjs/core/http'
import app from '@adonisjs/core/services/app'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import CoreProvider from '#core/core_provider'
import ShowListing from '#listings/services/show_listing'
import ListingStore from '#listings/stores/listing_store'
import AuthenticateMiddleware from '#apps/middleware/authenticate_middleware'

class Store {}

@inject()
class Action {
  constructor(public store: Store) {}
}

@inject()
class UsesContext {
  constructor(public ctx: HttpContext) {}
}

@inject()
class PerRequest {
  constructor(public store: Store) {}
}

@inject()
class OnPerRequest {
  constructor(public collaborator: PerRequest) {}
}

@inject()
class ThroughContext {
  constructor(public collaborator: UsesContext) {}
}

/** A container of the test's own, as the app's providers bind on theirs. */
function fresh() {
  const container = new Container()
  return { container, lifetimes: Lifetimes.of(container) }
}

test.group('Lifetimes: the boot-time check', () => {
  test('a process-wide class that injects HttpContext fails the check', ({ assert }) => {
    const { lifetimes } = fresh()
    lifetimes.singleton(UsesContext)
    assert.deepEqual(lifetimes.problems(), [
      'UsesContext is process-wide but depends on HttpContext (UsesContext → HttpContext)',
    ])
    assert.throws(() => lifetimes.check(), /UsesContext is process-wide but depends on HttpContext/)
  })

  test('one whose collaborator is built per use fails; with the collaborator process-wide it passes', ({
    assert,
  }) => {
    const { lifetimes } = fresh()
    lifetimes.singleton(OnPerRequest)
    lifetimes.singleton(Store)
    assert.deepEqual(lifetimes.problems(), [
      'OnPerRequest is process-wide but depends on PerRequest, which is built per use',
    ])
    assert.throws(() => lifetimes.check(), /depends on PerRequest, which is built per use/)

    lifetimes.singleton(PerRequest)
    assert.deepEqual(lifetimes.problems(), [])
    assert.doesNotThrow(() => lifetimes.check())
  })

  test('HttpContext reached through a per-use collaborator is named with its path', ({
    assert,
  }) => {
    const { lifetimes } = fresh()
    lifetimes.singleton(ThroughContext)
    assert.deepEqual(lifetimes.problems(), [
      'ThroughContext is process-wide but depends on HttpContext (ThroughContext → UsesContext → HttpContext)',
    ])
  })

  test('the boot fails on such a binding (the core provider runs the check)', async ({
    assert,
  }) => {
    const { container, lifetimes } = fresh()
    lifetimes.singleton(UsesContext)
    const appLike = { container, config: { get: () => ({}) } } as unknown as ApplicationService
    await assert.rejects(
      () => new CoreProvider(appLike).boot(),
      /UsesContext is process-wide but depends on HttpContext/
    )
  })

  test("the app's own bindings pass, and its request path is built once", async ({ assert }) => {
    assert.deepEqual(Lifetimes.of(app.container).problems(), [])
    assert.strictEqual(
      await app.container.make(AuthenticateMiddleware),
      await app.container.make(AuthenticateMiddleware)
    )
    assert.strictEqual(await app.container.make(ShowListing), await app.container.make(ShowListing))
    // What is not bound process-wide is built on each make.
    assert.notStrictEqual(
      await app.container.make(PerRequest),
      await app.container.make(PerRequest)
    )
  })

  test('a class with constructor parameters but no @inject() is refused, not built empty', async ({
    assert,
  }) => {
    class Bare {
      constructor(public store: Store) {}
    }
    const { container, lifetimes } = fresh()
    lifetimes.singleton(Bare)
    await assert.rejects(() => container.make(Bare), /Bare needs @inject\(\)/)
  })
})

test.group(
  'Lifetimes: a swap reaches the singletons built on it, and its restore undoes it',
  () => {
    test('swapped after the singleton was built: the fake is used, and gone after restore', async ({
      assert,
    }) => {
      const { container, lifetimes } = fresh()
      lifetimes.singleton(Store)
      lifetimes.singleton(Action)
      const before = await container.make(Action)
      const fake = new Store()

      container.swap(Store, () => fake)
      const during = await container.make(Action)
      assert.strictEqual(during.store, fake)
      assert.strictEqual(await container.make(Action), during)

      container.restore(Store)
      const after = await container.make(Action)
      assert.notStrictEqual(after.store, fake)
      assert.strictEqual(after.store, await container.make(Store))
      assert.strictEqual(await container.make(Action), after)
      assert.notStrictEqual(after, during)
      assert.instanceOf(before.store, Store)
    })

    test('first built during the swap (the test-order trap): restore still leaves no fake behind', async ({
      assert,
    }) => {
      const { container, lifetimes } = fresh()
      lifetimes.singleton(Store)
      lifetimes.singleton(Action)
      const fake = new Store()
      container.swap(Store, () => fake)
      assert.strictEqual((await container.make(Action)).store, fake)

      container.restore(Store)
      assert.notStrictEqual((await container.make(Action)).store, fake)
    })

    test('restoreAll undoes every swap, with or without a list', async ({ assert }) => {
      const { container, lifetimes } = fresh()
      lifetimes.singleton(Store)
      lifetimes.singleton(Action)
      const fake = new Store()
      container.swap(Store, () => fake)
      assert.strictEqual((await container.make(Action)).store, fake)
      container.restoreAll([Store])
      assert.notStrictEqual((await container.make(Action)).store, fake)

      container.swap(Store, () => fake)
      assert.strictEqual((await container.make(Action)).store, fake)
      container.restoreAll()
      assert.notStrictEqual((await container.make(Action)).store, fake)
    })

    test('on the app: a store swapped under a built action, then restored', async ({ assert }) => {
      const real = await app.container.make(ShowListing)
      const fake = new ListingStore()
      app.container.swap(ListingStore, () => fake)
      try {
        const during = await app.container.make(ShowListing)
        assert.strictEqual((during as any).listings, fake)
      } finally {
        app.container.restore(ListingStore)
      }
      const after = await app.container.make(ShowListing)
      assert.notStrictEqual((after as any).listings, fake)
      assert.strictEqual((after as any).listings, await app.container.make(ListingStore))
      assert.strictEqual((real as any).listings, (after as any).listings)
    })
  }
)
