/*
 * Region and city names for transformers, fetched for a whole page at once
 * through the catalogue's PlaceResolver (two queries, no N+1).
 */
import { inject } from '@adonisjs/core'
import PlaceResolver from '#catalog/services/place_resolver'

export type PlaceNames = { region(id: number | null): string; city(id: number | null): string }

@inject()
export default class LoadPlaceNames {
  constructor(private places: PlaceResolver) {}

  async execute(ids: { regionId?: number | null; cityId?: number | null }[]): Promise<PlaceNames> {
    const { regions, cities } = await this.places.names(ids)
    return {
      region: (id) => (id ? (regions.get(id)?.name ?? '') : ''),
      city: (id) => (id ? (cities.get(id)?.name ?? '') : ''),
    }
  }
}
