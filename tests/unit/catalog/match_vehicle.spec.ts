/*
 * MatchVehicle over a fake VehicleResolver: each bestmatch step narrows the
 * next, and the first that fails names its parameter.
 */
import { test } from '@japa/runner'
import { fail, ok } from '#core/result'
import MatchVehicle, { type Matched } from '#catalog/services/match_vehicle'
import type VehicleResolver from '#catalog/services/vehicle_resolver'
import type { BrandRef, ModelRef, VersionRef } from '#catalog/services/vehicle_resolver'

const toyota = { id: 1, name: 'Toyota' } as BrandRef
const corolla = { id: 10, name: 'Corolla', brandId: 1 } as ModelRef
const xei = { id: 100, name: '1.8 XEI', modelId: 10 } as VersionRef

const gr = { table: 'versions', id: 101, name: 'GR-S', bodyTypes: ['Sedán'], year: 2024 } as const

/** A failure as the resolver answers it: what `explain` reads. */
const failed = (reason: 'not_found' | 'ambiguous', input: string) =>
  fail(reason, { details: { ids: [], scope: { table: 'brands' as const }, input } })

/**
 * Knows Toyota → Corolla → 1.8 XEI; "Sedán" is the only body type; no version
 * in 1999 is ambiguous, explained with one candidate; asked calls are kept.
 */
class FakeResolver {
  asked: unknown[][] = []

  async explain(failure: ReturnType<typeof failed>) {
    const versionless = failure.details?.input === ''
    return { candidates: versionless ? [gr] : [], suggestions: [] }
  }

  async brand(input: string) {
    this.asked.push(['brand', input])
    return input === 'Toyota' ? ok(toyota) : failed('not_found', input)
  }

  async brandId(input: string) {
    this.asked.push(['brandId', input])
    return input === 'Toyota' ? ok(1) : failed('ambiguous', input)
  }

  async model(input: string, brandId: number, bodyType?: string | null) {
    this.asked.push(['model', input, brandId, bodyType])
    return input === 'Corolla' && brandId === 1 ? ok(corolla) : failed('not_found', input)
  }

  async version(input: string, modelId: number, year?: number | null, filters = {}) {
    this.asked.push(['version', input, modelId, year, filters])
    const several = input === 'GR' || (input === '' && year === 1999)
    return modelId === 10 && !several ? ok(xei) : failed('ambiguous', input)
  }

  bodyType(input: string) {
    return input === 'sedan'
      ? ok({ id: 'sedan', name: 'Sedán', codename: 'sedan' })
      : fail('not_found' as const)
  }
}

const COROLLA = { make: 'Toyota', model: 'Corolla' }

/** The issues of a failed match (null when it matched). */
const issues = (result: Matched<unknown>) => (result.ok ? null : result.details)

function setup() {
  const resolver = new FakeResolver()
  return { resolver, match: new MatchVehicle(resolver as unknown as VehicleResolver) }
}

test.group('Catalogue bestmatch: brand and model', () => {
  test('a brand found, or the make named', async ({ assert }) => {
    const { match } = setup()
    assert.deepEqual(await match.brand('Toyota'), { ok: true, value: toyota })
    assert.deepEqual(await match.brand('Tesla'), {
      ok: false,
      reason: 'no_match',
      details: [{ param: 'make', issue: 'not_found' }],
    })
  })

  test('a model within the brand, of the body type asked', async ({ assert }) => {
    const { match, resolver } = setup()
    assert.deepEqual(await match.model({ make: 'Toyota', model: 'Corolla', bodystyle: 'sedan' }), {
      ok: true,
      value: corolla,
    })
    assert.deepEqual(resolver.asked, [
      ['brandId', 'Toyota'],
      ['model', 'Corolla', 1, 'Sedán'],
    ])
  })

  test('the first step that fails names its parameter; later steps are not asked', async ({
    assert,
  }) => {
    const { match, resolver } = setup()
    const issue = async (query: Parameters<MatchVehicle['model']>[0]) =>
      issues(await match.model(query))
    assert.deepEqual(await issue({ make: 'Toyota', model: 'Corolla', bodystyle: 'tanque' }), [
      { param: 'bodystyle', issue: 'not_found' },
    ])
    assert.deepEqual(resolver.asked, [])
    assert.deepEqual(await issue({ make: 'Toyo', model: 'Corolla' }), [
      { param: 'make', issue: 'ambiguous' },
    ])
    assert.deepEqual(await issue({ make: 'Toyota', model: 'Etios' }), [
      { param: 'model', issue: 'not_found' },
    ])
  })
})

test.group('Catalogue bestmatch: version', () => {
  test('propulsion and transmission are normalised and handed to the version match', async ({
    assert,
  }) => {
    const { match, resolver } = setup()
    const found = await match.version({
      ...COROLLA,
      year: 2020,
      propulsion: 'nafta',
      transmission: 'cvt',
    })
    assert.deepEqual(found, { ok: true, value: xei })
    assert.deepEqual(resolver.asked.at(-1), [
      'version',
      '',
      10,
      2020,
      { propulsion: 'Nafta', transmission: 'CVT' },
    ])
  })

  test('unknown propulsion and transmission are both reported, before any lookup', async ({
    assert,
  }) => {
    const { match, resolver } = setup()
    const found = await match.version({ ...COROLLA, propulsion: 'vapor', transmission: 'pedales' })
    assert.deepEqual(found, {
      ok: false,
      reason: 'no_match',
      details: [
        { param: 'propulsion', issue: 'unknown_value' },
        { param: 'transmission', issue: 'unknown_value' },
      ],
    })
    assert.deepEqual(resolver.asked, [])
  })

  test('make, model and version failures name their parameter', async ({ assert }) => {
    const { match } = setup()
    const issue = async (query: Parameters<MatchVehicle['version']>[0]) =>
      issues(await match.version(query))
    assert.deepEqual(await issue({ make: 'Tesla', model: 'Corolla' }), [
      { param: 'make', issue: 'not_found' },
    ])
    assert.deepEqual(await issue({ make: 'Toyota', model: 'Etios' }), [
      { param: 'model', issue: 'not_found' },
    ])
    assert.deepEqual(await issue({ make: 'Toyota', model: 'Corolla', version: 'GR' }), [
      { param: 'version', issue: 'ambiguous' },
    ])
  })

  test('no version sent and several fit: the model (sent) is named, with the candidates', async ({
    assert,
  }) => {
    const { match } = setup()
    assert.deepEqual(issues(await match.version({ ...COROLLA, year: 1999 })), [
      { param: 'model', issue: 'versions_ambiguous', candidates: [gr] },
    ])
  })
})
