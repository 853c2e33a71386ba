/*
 * Wire shapes of the reference data: Region, Ciudad, Moneda, Carroceria and
 * the closed value sets Propulsion / Transmision.
 */
import { group, link, path } from '#core/http/links'
import type { CityRef, RegionRef } from '#catalog/services/place_resolver'
import type { CurrencyView } from '#catalog/services/place_directory'
import { named, object, type Wire } from '#core/openapi/schema'
import { LinkGroupSchema, LinksSchema, type ReferenceSchema } from '#core/openapi/wire'
import type { CatalogKind } from './vehicle_transformer.js'

export const RegionSchema = named(
  'Region',
  object({
    Nombre: { type: 'string' },
    Codigo: { type: 'string', examples: ['AR-X'] },
    Ciudades: LinkGroupSchema,
    _links: LinksSchema,
  })
)

export const CiudadSchema = named(
  'Ciudad',
  object({ Nombre: { type: 'string' }, Region: { type: 'string' }, _links: LinksSchema })
)

export const MonedaSchema = named(
  'Moneda',
  object({
    Codigo: { type: 'string', examples: ['ARS'] },
    Nombre: { type: 'string' },
    Aceptada: { type: 'boolean' },
    _links: LinksSchema,
  })
)

export const ValorNombradoSchema = named(
  'ValorNombrado',
  object({ Nombre: { type: 'string' }, Codename: { type: 'string' }, _links: LinksSchema })
)

type Reference = Wire<typeof ReferenceSchema>

export function regionFull(region: RegionRef): Wire<typeof RegionSchema> {
  return {
    Nombre: region.name,
    Codigo: region.code,
    Ciudades: group({ self: link(`/v3/ciudades?region=${region.id}`) }),
    _links: { self: link(path('regiones', region.id)) },
  }
}

export const regionRef = (region: RegionRef): Reference => ({
  href: path('regiones', region.id),
  title: region.name,
})

export function cityFull(city: CityRef): Wire<typeof CiudadSchema> {
  return {
    Nombre: city.name,
    Region: city.regionName,
    _links: {
      self: link(path('ciudades', city.id)),
      region: link(path('regiones', city.regionId)),
    },
  }
}

export const cityRef = (city: CityRef): Reference => ({
  href: path('ciudades', city.id),
  title: `${city.name}, ${city.regionName}`,
})

export function currencyFull(currency: CurrencyView): Wire<typeof MonedaSchema> {
  return {
    Codigo: currency.code,
    Nombre: currency.name,
    Aceptada: currency.accepted,
    _links: { self: link(path('monedas', currency.code)) },
  }
}

export const currencyRef = (currency: CurrencyView): Reference => ({
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

export function namedFull(value: NamedValue): Wire<typeof ValorNombradoSchema> {
  return {
    Nombre: value.name,
    Codename: value.codename,
    _links: { self: link(path(value.collection, value.key)) },
  }
}

export const namedRef = (value: NamedValue): Reference => ({
  href: path(value.collection, value.key),
  title: value.name,
})

export const REGION: CatalogKind<RegionRef> = {
  full: regionFull,
  ref: regionRef,
  missing: 'La región',
}
export const CITY: CatalogKind<CityRef> = { full: cityFull, ref: cityRef, missing: 'La ciudad' }
export const CURRENCY: CatalogKind<CurrencyView> = {
  full: currencyFull,
  ref: currencyRef,
  missing: 'La moneda',
}
/** Body types (`missing`: La carrocería); value sets use NAMED_VALUE. */
export const BODY_TYPE: CatalogKind<NamedValue> = {
  full: namedFull,
  ref: namedRef,
  missing: 'La carrocería',
}
export const NAMED_VALUE: CatalogKind<NamedValue> = {
  full: namedFull,
  ref: namedRef,
  missing: 'El valor',
}
