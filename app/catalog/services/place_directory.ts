/*
 * Reads of regions, cities and currencies for the reference endpoints and the
 * buyers' pages (SQL in PlaceStore).
 */
import { inject } from '@adonisjs/core'
import { settings } from '#core/settings'
import PlaceStore, {
  type CityFilter,
  type CityRef,
  type RegionRef,
} from '#catalog/stores/place_store'

export type CurrencyView = { code: string; name: string; accepted: boolean }

@inject()
export default class PlaceDirectory {
  constructor(private store: PlaceStore) {}

  regions(): Promise<RegionRef[]> {
    return this.store.regions()
  }

  region(id: number): Promise<RegionRef | null> {
    return this.store.region(id)
  }

  cities(filter: CityFilter): Promise<CityRef[]> {
    return this.store.cities(filter)
  }

  city(id: number): Promise<CityRef | null> {
    return this.store.city(id)
  }

  /** The currencies accepted in Valor (settings), in their configured order. */
  async acceptedCurrencies(): Promise<CurrencyView[]> {
    const rows = await this.store.currencies(settings.acceptedCurrencies)
    return settings.acceptedCurrencies
      .map((code) => rows.find((row) => row.code === code))
      .filter((row): row is { code: string; name: string } => !!row)
      .map((row) => ({ ...row, accepted: true }))
  }

  async currency(code: string): Promise<CurrencyView | null> {
    const row = await this.store.currency(code.toUpperCase())
    return row ? { ...row, accepted: settings.acceptedCurrencies.includes(row.code) } : null
  }
}
