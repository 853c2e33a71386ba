import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand, link } from '#core/http/links'
import PlaceDirectory from '#catalog/services/place_directory'
import PlaceResolver from '#catalog/services/place_resolver'
import { citiesQueryValidator } from '#catalog/validators/catalog_validators'
import { CITY, REGION } from '#catalog/transformers/reference_transformer'
import { matchProblem } from '#catalog/http/problems'
import { catalogQuery, respondEntry, respondList } from './catalog_response.js'

/** Regions (provinces) and cities. */
export default class PlacesController {
  /** GET /v3/regiones */
  @inject()
  async regions(ctx: HttpContext, directory: PlaceDirectory) {
    return respondList(ctx, REGION, { self: link('/v3/regiones') }, await directory.regions())
  }

  /** GET /v3/regiones/{id} */
  @inject()
  region(ctx: HttpContext, directory: PlaceDirectory) {
    return respondEntry(ctx, REGION, (id) => directory.region(id))
  }

  /** GET /v3/ciudades{?region,q}: `region` is an id, href, name or ISO 3166-2 code. */
  @inject()
  async cities(ctx: HttpContext, directory: PlaceDirectory, resolver: PlaceResolver) {
    const input = await catalogQuery(ctx, citiesQueryValidator)
    const region = input.region ? await resolver.region(input.region) : null
    if (region && !region.ok) throw matchProblem([{ param: 'region', issue: region.reason }])
    const cities = await directory.cities({ regionId: region?.value.id, q: input.q })
    const self = { href: expand('/v3/ciudades{?region,q}', input) }
    return respondList(ctx, CITY, { self }, cities)
  }

  /** GET /v3/ciudades/{id} */
  @inject()
  city(ctx: HttpContext, directory: PlaceDirectory) {
    return respondEntry(ctx, CITY, (id) => directory.city(id))
  }
}
