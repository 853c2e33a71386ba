/*
 * Region / Ciudad as callers send them (id, URL, path, name, ISO code) to
 * catalogue ids, with field-named errors. A city alone implies its region.
 */
import { inject } from '@adonisjs/core'
import PlaceResolver from '#catalog/services/place_resolver'
import { fail, ok, type Result } from '#core/result'

export type PlaceInput = { region?: string | null; city?: string | null }
export type Place = { regionId: number | null; cityId: number | null }

const MESSAGES = {
  Region: {
    not_found: 'La región no existe.',
    ambiguous: 'La región es ambigua: envíe su id o su código ISO.',
  },
  Ciudad: {
    not_found: 'La ciudad no existe en la región indicada.',
    ambiguous: 'La ciudad es ambigua: envíe su id o su nombre completo.',
  },
}

@inject()
export default class ResolvePlace {
  constructor(private places: PlaceResolver) {}

  async execute(input: PlaceInput): Promise<Result<Place, 'invalid'>> {
    const errors: Record<string, string[]> = {}
    let regionId: number | null = null
    let cityId: number | null = null
    if (input.region) {
      const region = await this.places.region(input.region)
      if (region.ok) regionId = region.value.id
      else
        errors.Region = [MESSAGES.Region[region.reason === 'ambiguous' ? 'ambiguous' : 'not_found']]
    }
    if (input.city && !errors.Region) {
      const city = await this.places.city(input.city, regionId)
      if (city.ok) {
        cityId = city.value.id
        regionId = city.value.regionId
      } else
        errors.Ciudad = [MESSAGES.Ciudad[city.reason === 'ambiguous' ? 'ambiguous' : 'not_found']]
    }
    if (Object.keys(errors).length) return fail('invalid', { errors })
    return ok({ regionId, cityId })
  }
}
