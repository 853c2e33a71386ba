/*
 * Reads of regions, cities and currencies for the reference endpoints.
 */
import db from '@adonisjs/lucid/services/db'
import { settings } from '#core/settings'
import { likeLiteral } from './matcher.js'
import { cityRows, type CityRef, type RegionRef } from './place_resolver.js'

export type CurrencyView = { code: string; name: string; accepted: boolean }

export default class PlaceDirectory {
  async regions(): Promise<RegionRef[]> {
    return db.from('regions').select('id', 'code', 'name').orderBy('name')
  }

  async region(id: number): Promise<RegionRef | null> {
    return db.from('regions').select('id', 'code', 'name').where('id', id).first()
  }

  async cities(filter: { regionId?: number; q?: string }): Promise<CityRef[]> {
    const query = cityRows().orderBy('cities.name').orderBy('regions.name').orderBy('cities.id')
    if (filter.regionId) query.where('cities.region_id', filter.regionId)
    if (filter.q)
      query.whereRaw(`cities.search like '%' || catalog_fold(?) || '%'`, [likeLiteral(filter.q)])
    return query
  }

  async city(id: number): Promise<CityRef | null> {
    return cityRows().where('cities.id', id).first()
  }

  /** The currencies accepted in Valor (settings), in their configured order. */
  async acceptedCurrencies(): Promise<CurrencyView[]> {
    const rows = await db
      .from('currencies')
      .whereIn('code', settings.acceptedCurrencies)
      .select('code', 'name')
    return settings.acceptedCurrencies
      .map((code) => rows.find((row) => row.code === code))
      .filter((row): row is { code: string; name: string } => !!row)
      .map((row) => ({ ...row, accepted: true }))
  }

  async currency(code: string): Promise<CurrencyView | null> {
    const row = await db
      .from('currencies')
      .where('code', code.toUpperCase())
      .select('code', 'name')
      .first()
    return row ? { ...row, accepted: settings.acceptedCurrencies.includes(row.code) } : null
  }
}
