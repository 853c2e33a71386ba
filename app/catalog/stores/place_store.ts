/*
 * Regions, cities and currencies. The query builder: small tables, dynamic
 * filters, no bench figure asking for written-out SQL.
 * No `tx` argument: catalogue reads never run inside a write transaction (they
 * come before it: docs/decisions/core.md, Database & deploys).
 */
import db from '@adonisjs/lucid/services/db'
import { likeLiteral } from './match_store.js'

export type RegionRef = { id: number; code: string; name: string }
export type CityRef = { id: number; regionId: number; name: string; regionName: string }
export type CurrencyRow = { code: string; name: string }

export type CityFilter = { regionId?: number; q?: string }

function regionRows() {
  return db.from('regions').select('id', 'code', 'name')
}

/** Cities with their region's name: the rows behind CityRef. */
function cityRows() {
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

export default class PlaceStore {
  regions(): Promise<RegionRef[]> {
    return regionRows().orderBy('name')
  }

  async region(id: number): Promise<RegionRef | null> {
    return (await regionRows().where('id', id).first()) ?? null
  }

  async regionByCode(code: string): Promise<RegionRef | null> {
    return (await regionRows().where('code', code.toUpperCase()).first()) ?? null
  }

  regionsByIds(ids: number[]): Promise<RegionRef[]> {
    return regionRows().whereIn('id', ids)
  }

  /** By name, region name and id; in one region, and/or with `q` (folded) in the name. */
  cities(filter: CityFilter): Promise<CityRef[]> {
    const query = cityRows().orderBy('cities.name').orderBy('regions.name').orderBy('cities.id')
    if (filter.regionId) query.where('cities.region_id', filter.regionId)
    if (filter.q)
      query.whereRaw(`cities.search like '%' || catalog_fold(?) || '%'`, [likeLiteral(filter.q)])
    return query
  }

  async city(id: number): Promise<CityRef | null> {
    return (await cityRows().where('cities.id', id).first()) ?? null
  }

  citiesByIds(ids: number[]): Promise<CityRef[]> {
    return cityRows().whereIn('cities.id', ids)
  }

  currencies(codes: string[]): Promise<CurrencyRow[]> {
    return db.from('currencies').whereIn('code', codes).select('code', 'name')
  }

  async currency(code: string): Promise<CurrencyRow | null> {
    return (await db.from('currencies').where('code', code).select('code', 'name').first()) ?? null
  }
}
