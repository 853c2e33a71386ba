/*
 * A place on the wire (the Located columns of operators and branches): region
 * and city by name, the street address as given ('' when unset).
 */
import type { PlaceNames } from '#agencies/services/place_names'

export const LocationProperties = {
  Region: { type: 'string' },
  Ciudad: { type: 'string' },
  Direccion: { type: 'string' },
} as const

type Place = { regionId: number | null; cityId: number | null; address: string | null }

export function locationOf(place: Place, names: PlaceNames) {
  return {
    Region: names.region(place.regionId),
    Ciudad: names.city(place.cityId),
    Direccion: place.address ?? '',
  }
}
