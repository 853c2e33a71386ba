/*
 * The catalogue as ResolvePlace answers it, for the agencies actions' unit specs:
 * Córdoba (region 5) with its city Río Cuarto (51); "San" is ambiguous;
 * anything else is unknown. null or absent parts resolve to null.
 */
import { fail, ok } from '#core/result'
import type ResolvePlace from '#agencies/services/resolve_place'
import type { Place, PlaceInput, UnknownPlace } from '#agencies/services/resolve_place'

export class FakePlaces implements Pick<ResolvePlace, 'execute'> {
  asked: PlaceInput[] = []

  async execute(input: PlaceInput) {
    this.asked.push(input)
    const issues: UnknownPlace = {}
    let place: Place = { regionId: null, cityId: null }
    if (input.region) {
      if (input.region === 'Córdoba') place = { ...place, regionId: 5 }
      else issues.region = input.region === 'San' ? 'ambiguous' : 'not_found'
    }
    if (input.city && !issues.region) {
      if (input.city === 'Río Cuarto') place = { regionId: 5, cityId: 51 }
      else issues.city = 'not_found'
    }
    if (issues.region || issues.city) return fail('unknown_place', { details: issues })
    return ok(place)
  }
}
