/*
 * A region and city as callers send them (id, URL, path, name, ISO code) to
 * catalogue ids. A city alone implies its region.
 */
import { inject } from '@adonisjs/core'
import PlaceResolver from '#catalog/services/place_resolver'
import { fail, ok, type Fail, type Ok } from '#core/result'

export type PlaceInput = { region?: string | null; city?: string | null }
export type Place = { regionId: number | null; cityId: number | null }

/** Why a place could not be resolved, per part (the city is not tried after a bad region). */
export type PlaceIssue = 'not_found' | 'ambiguous'
export type UnknownPlace = { region?: PlaceIssue; city?: PlaceIssue }
export type PlaceFailure = Fail<'unknown_place', UnknownPlace>

@inject()
export default class ResolvePlace {
  constructor(private places: PlaceResolver) {}

  async execute(input: PlaceInput): Promise<Ok<Place> | PlaceFailure> {
    const issues: UnknownPlace = {}
    let regionId: number | null = null
    let cityId: number | null = null
    if (input.region) {
      const region = await this.places.region(input.region)
      if (region.ok) regionId = region.value.id
      else issues.region = region.reason === 'ambiguous' ? 'ambiguous' : 'not_found'
    }
    if (input.city && !issues.region) {
      const city = await this.places.city(input.city, regionId)
      if (city.ok) {
        cityId = city.value.id
        regionId = city.value.regionId
      } else issues.city = city.reason === 'ambiguous' ? 'ambiguous' : 'not_found'
    }
    if (issues.region || issues.city) return fail('unknown_place', { details: issues })
    return ok({ regionId, cityId })
  }
}
