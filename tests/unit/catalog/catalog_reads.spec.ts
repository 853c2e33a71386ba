/*
 * The catalogue's read rules over fake stores: a list asks whether its parent
 * exists only when it comes back empty (docs/decisions/performance.md, Performance:
 * statements of a versiones request 3 → 2), and concurrent revision reads share
 * one statement.
 */
import { test } from '@japa/runner'
import BrandDirectory from '#catalog/services/brand_directory'
import VersionDirectory from '#catalog/services/version_directory'
import CatalogRevision from '#catalog/services/catalog_revision'
import type VehicleStore from '#catalog/stores/vehicle_store'
import type { ModelRef, VersionRef } from '#catalog/stores/vehicle_store'
import type CatalogStateStore from '#catalog/stores/catalog_state_store'

class FakeVehicleStore {
  asked: string[] = []
  constructor(
    private data: { brands?: number[]; models?: ModelRef[]; versions?: VersionRef[] } = {}
  ) {}

  async models({ brandId }: { brandId: number }) {
    this.asked.push(`models of ${brandId}`)
    return (this.data.models ?? []).filter((model) => model.brandId === brandId)
  }

  async brandExists(id: number) {
    this.asked.push(`brand ${id}?`)
    return (this.data.brands ?? []).includes(id)
  }

  async versions({ modelId }: { modelId: number }) {
    this.asked.push(`versions of ${modelId}`)
    return (this.data.versions ?? []).filter((version) => version.modelId === modelId)
  }

  async modelExists(id: number) {
    this.asked.push(`model ${id}?`)
    return (this.data.models ?? []).some((model) => model.id === id)
  }
}

const model = { id: 10, brandId: 1, name: 'Corolla' } as ModelRef
const version = { id: 100, modelId: 10, name: '1.8 XEI' } as VersionRef
const asStore = (store: FakeVehicleStore) => store as unknown as VehicleStore

test.group('Catalogue reads: lists and their parent', () => {
  test("a brand's models: the existence of the brand asked only for an empty list", async ({
    assert,
  }) => {
    const store = new FakeVehicleStore({ brands: [1, 2], models: [model] })
    const directory = new BrandDirectory(asStore(store))
    assert.deepEqual(await directory.listModels({ brandId: 1 }), { ok: true, value: [model] })
    assert.deepEqual(store.asked, ['models of 1'])

    store.asked = []
    assert.deepEqual(await directory.listModels({ brandId: 2, q: 'zz' }), { ok: true, value: [] })
    assert.deepEqual(store.asked, ['models of 2', 'brand 2?'])

    assert.deepEqual(await directory.listModels({ brandId: 3 }), {
      ok: false,
      reason: 'unknown_brand',
    })
  })

  test("a model's versions: the existence of the model asked only for an empty list", async ({
    assert,
  }) => {
    const store = new FakeVehicleStore({
      models: [model, { ...model, id: 11 }],
      versions: [version],
    })
    const directory = new VersionDirectory(asStore(store))
    assert.deepEqual(await directory.listVersions({ modelId: 10 }), { ok: true, value: [version] })
    assert.deepEqual(store.asked, ['versions of 10'])

    store.asked = []
    assert.deepEqual(await directory.listVersions({ modelId: 11, year: 1990 }), {
      ok: true,
      value: [],
    })
    assert.deepEqual(store.asked, ['versions of 11', 'model 11?'])

    assert.deepEqual(await directory.listVersions({ modelId: 12 }), {
      ok: false,
      reason: 'unknown_model',
    })
  })
})

test.group('Catalogue reads: the revision', () => {
  test('askers while a read is on its way share it; a later one reads again', async ({
    assert,
  }) => {
    let reads = 0
    let revision = 41
    const store = {
      revision: async () => {
        reads++
        return String(revision)
      },
    } satisfies Pick<CatalogStateStore, 'revision'>
    const reader = new CatalogRevision(store as CatalogStateStore)
    const first = reader.current()
    assert.strictEqual(reader.current(), first)
    assert.equal(await first, '41')
    assert.equal(reads, 1)

    revision++
    assert.equal(await reader.current(), '42')
    assert.equal(reads, 2)
  })
})
