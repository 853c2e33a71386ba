/*
 * Resolves what callers send as Region / Ciudad (docs/spec.md §2.6: id, API URL or
 * path, name or part of it, ISO 3166-2 code) to catalogue rows.
 */
import db from '@adonisjs/lucid/services/db'
import { fail, ok, type Result } from '#core/result'
import { bestMatchId, type MatchFailure } from './matcher.js'

export type RegionRef = { id: number; code: string; name: string }
export type CityRef = { id: number; regionId: number; name: string; regionName: string }

const ISO_3166_2 = /^[a-z]{2}-[a-z0-9]{1,3}$/i

export default class PlaceResolver {
  async region(input: string): Promise<Result<RegionRef, MatchFailure>> {
    const text = input.trim()
    if (ISO_3166_2.test(text)) {
      const byCode = await this.regionRow().where('code', text.toUpperCase()).first()
      if (byCode) return ok(byCode)
    }
    const found = await bestMatchId(
      {
        table: 'regions',
        collection: '/v3/regiones',
        exactSql: 'catalog_fold(regions.name) = catalog_fold(?) or lower(regions.code) = lower(?)',
      },
      text
    )
    if (!found.ok) return found
    return ok(await this.regionRow().where('id', found.value).firstOrFail())
  }

  /** A city, within `regionId` when given (a city of another region is not found). */
  async city(input: string, regionId?: number | null): Promise<Result<CityRef, MatchFailure>> {
    const found = await bestMatchId(
      {
        table: 'cities',
        collection: '/v3/ciudades',
        exactSql: 'catalog_fold(cities.name) = catalog_fold(?)',
        scope: regionId ? (params) => [`cities.region_id = ${params.add(regionId)}`] : undefined,
      },
      input
    )
    if (!found.ok) return found
    const city = await cityRows().where('cities.id', found.value).first()
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
      regionIds.length ? this.regionRow().whereIn('id', regionIds) : [],
      cityIds.length ? cityRows().whereIn('cities.id', cityIds) : [],
    ])
    return {
      regions: new Map<number, RegionRef>(regions.map((region: RegionRef) => [region.id, region])),
      cities: new Map<number, CityRef>(cities.map((city: CityRef) => [city.id, city])),
    }
  }

  private regionRow() {
    return db.from('regions').select('id', 'code', 'name')
  }
}

/** Cities with their region's name: the rows behind CityRef. */
export function cityRows() {
  return db
    .from('cities')
    .join('regions', 'regions.id', 'cities.region_id')
    .select(
      'cities.id',
      'cities.region_id as regionId',
      'cities.name',
      'regions.name as regionName'
    )
}
