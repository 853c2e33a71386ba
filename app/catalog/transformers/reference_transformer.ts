/*
 * Wire shapes of the reference data: Region, Ciudad, Moneda, Carroceria and
 * the closed value sets Propulsion / Transmision.
 */
import { group, link, path } from '#core/http/links'
import type { CityRef, RegionRef } from '#catalog/services/place_resolver'
import type { CurrencyView } from '#catalog/services/place_directory'

export function regionFull(region: RegionRef) {
  return {
    Nombre: region.name,
    Codigo: region.code,
    Ciudades: group({ self: link(`/v3/ciudades?region=${region.id}`) }),
    _links: { self: link(path('regiones', region.id)) },
  }
}

export const regionRef = (region: RegionRef) => ({
  href: path('regiones', region.id),
  title: region.name,
})

export function cityFull(city: CityRef) {
  return {
    Nombre: city.name,
    Region: city.regionName,
    _links: {
      self: link(path('ciudades', city.id)),
      region: link(path('regiones', city.regionId)),
    },
  }
}

export const cityRef = (city: CityRef) => ({
  href: path('ciudades', city.id),
  title: `${city.name}, ${city.regionName}`,
})

export function currencyFull(currency: CurrencyView) {
  return {
    Codigo: currency.code,
    Nombre: currency.name,
    Aceptada: currency.accepted,
    _links: { self: link(path('monedas', currency.code)) },
  }
}

export const currencyRef = (currency: CurrencyView) => ({
  href: path('monedas', currency.code),
  title: currency.name,
})

/** A named value with a codename: Carroceria, Propulsion, Transmision. */
export type NamedValue = {
  collection: string
  key: string | number
  name: string
  codename: string
}

export function namedFull(value: NamedValue) {
  return {
    Nombre: value.name,
    Codename: value.codename,
    _links: { self: link(path(value.collection, value.key)) },
  }
}

export const namedRef = (value: NamedValue) => ({
  href: path(value.collection, value.key),
  title: value.name,
})
