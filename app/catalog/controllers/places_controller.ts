import type { HttpContext } from '@adonisjs/core/http'
import { expand, link } from '#core/http/links'
import PlaceDirectory from '#catalog/services/place_directory'
import PlaceResolver from '#catalog/services/place_resolver'
import { citiesQueryValidator, idValidator } from '#catalog/validators/catalog_validators'
import {
  cityFull,
  cityRef,
  regionFull,
  regionRef,
} from '#catalog/transformers/reference_transformer'
import { listShapes, shapes } from '#catalog/transformers/vehicle_transformer'
import { matchProblem, notFound, queryOf, respondCatalog } from './catalog_response.js'

/** Regions (provinces) and cities. */
export default class PlacesController {
  private directory = new PlaceDirectory()
  private resolver = new PlaceResolver()

  /** GET /v3/regiones */
  async regions(ctx: HttpContext) {
    const regions = await this.directory.regions()
    return respondCatalog(
      ctx,
      listShapes({ self: link('/v3/regiones') }, regions, regionFull, regionRef)
    )
  }

  /** GET /v3/regiones/{id} */
  async region(ctx: HttpContext) {
    const { id } = await idValidator.validate({ id: ctx.params.id })
    const region = await this.directory.region(id)
    if (!region) throw notFound('La región')
    return respondCatalog(ctx, shapes(region, regionFull, regionRef))
  }

  /** GET /v3/ciudades{?region,q}: `region` is an id, href, name or ISO 3166-2 code. */
  async cities(ctx: HttpContext) {
    const input = await citiesQueryValidator.validate(queryOf(ctx))
    const region = input.region ? await this.resolver.region(input.region) : null
    if (region && !region.ok) throw matchProblem('region', region.reason)
    const cities = await this.directory.cities({
      regionId: region?.ok ? region.value.id : undefined,
      q: input.q,
    })
    const self = { href: expand('/v3/ciudades{?region,q}', input) }
    return respondCatalog(ctx, listShapes({ self }, cities, cityFull, cityRef))
  }

  /** GET /v3/ciudades/{id} */
  async city(ctx: HttpContext) {
    const { id } = await idValidator.validate({ id: ctx.params.id })
    const city = await this.directory.city(id)
    if (!city) throw notFound('La ciudad')
    return respondCatalog(ctx, shapes(city, cityFull, cityRef))
  }
}
