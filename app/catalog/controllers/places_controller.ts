import { inject } from '@adonisjs/core'
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
  /** GET /v3/regiones */
  @inject()
  async regions(ctx: HttpContext, directory: PlaceDirectory) {
    const regions = await directory.regions()
    return respondCatalog(
      ctx,
      listShapes({ self: link('/v3/regiones') }, regions, regionFull, regionRef)
    )
  }

  /** GET /v3/regiones/{id} */
  @inject()
  async region(ctx: HttpContext, directory: PlaceDirectory) {
    const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
    const region = await directory.region(id)
    if (!region) throw notFound('La región')
    return respondCatalog(ctx, shapes(region, regionFull, regionRef))
  }

  /** GET /v3/ciudades{?region,q}: `region` is an id, href, name or ISO 3166-2 code. */
  @inject()
  async cities(ctx: HttpContext, directory: PlaceDirectory, resolver: PlaceResolver) {
    const input = await ctx.request.validateUsing(citiesQueryValidator, { data: queryOf(ctx) })
    const region = input.region ? await resolver.region(input.region) : null
    if (region && !region.ok) throw matchProblem('region', region.reason)
    const cities = await directory.cities({
      regionId: region?.ok ? region.value.id : undefined,
      q: input.q,
    })
    const self = { href: expand('/v3/ciudades{?region,q}', input) }
    return respondCatalog(ctx, listShapes({ self }, cities, cityFull, cityRef))
  }

  /** GET /v3/ciudades/{id} */
  @inject()
  async city(ctx: HttpContext, directory: PlaceDirectory) {
    const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
    const city = await directory.city(id)
    if (!city) throw notFound('La ciudad')
    return respondCatalog(ctx, shapes(city, cityFull, cityRef))
  }
}
