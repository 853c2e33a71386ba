/*
 * Resolves what callers send as Region / Ciudad (docs/spec.md §2.6: id, API URL or
 * path, name or part of it, ISO 3166-2 code) to catalogue rows.
 */
import { inject } from '@adonisjs/core'
import { errors } from '@adonisjs/lucid'
import { fail, ok, type Result } from '#core/result'
import PlaceStore, { type CityRef, type RegionRef } from '#catalog/stores/place_store'
import Matcher, { type MatchFailure } from './matcher.js'

export type { CityRef, RegionRef }

const ISO_3166_2 = /^[a-z]{2}-[a-z0-9]{1,3}$/i

@inject()
export default class PlaceResolver {
  constructor(
    private store: PlaceStore,
    private matcher: Matcher
  ) {}

  async region(input: string): Promise<Result<RegionRef, MatchFailure>> {
    const text = input.trim()
    if (ISO_3166_2.test(text)) {
      const byCode = await this.store.regionByCode(text)
      if (byCode) return ok(byCode)
    }
    const found = await this.matcher.bestMatchId({ table: 'regions' }, text)
    if (!found.ok) return fail(found.reason)
    const region = await this.store.region(found.value)
    // Gone only if an import deleted it meanwhile: 404, as Lucid's `firstOrFail`.
    if (!region) throw new errors.E_ROW_NOT_FOUND()
    return ok(region)
  }

  /** A city, within `regionId` when given (a city of another region is not found). */
  async city(input: string, regionId?: number | null): Promise<Result<CityRef, MatchFailure>> {
    const found = await this.matcher.bestMatchId({ table: 'cities', regionId }, input)
    if (!found.ok) return fail(found.reason)
    const city = await this.store.city(found.value)
    return city ? ok(city) : fail('not_found')
  }

  /** Names of many regions and cities in two queries, for transformers of lists. */
  async names(ids: { regionId?: number | null; cityId?: number | null }[]) {
    const regionIds = [
      ...new Set(ids.map((entry) => entry.regionId).filter((id): id is number => !!id)),
    ]
    const cityIds = [
      ...new Set(ids.map((entry) => entry.cityId).filter((id): id is number => !!id)),
    ]
    const [regions, cities] = await Promise.all([
      regionIds.length ? this.store.regionsByIds(regionIds) : [],
      cityIds.length ? this.store.citiesByIds(cityIds) : [],
    ])
    return {
      regions: new Map<number, RegionRef>(regions.map((region) => [region.id, region])),
      cities: new Map<number, CityRef>(cities.map((city) => [city.id, city])),
    }
  }
}
