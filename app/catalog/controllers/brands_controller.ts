import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import BrandDirectory from '#catalog/services/brand_directory'
import MatchVehicle from '#catalog/services/match_vehicle'
import { brandMatchValidator, brandsQueryValidator } from '#catalog/validators/catalog_validators'
import { BRAND } from '#catalog/transformers/vehicle_transformer'
import { catalogQuery, respondEntry, respondList, respondMatch } from './catalog_response.js'

export default class BrandsController {
  /** GET /v3/marcas{?q,soloMercadoNuevos} */
  @inject()
  async index(ctx: HttpContext, directory: BrandDirectory) {
    const input = await catalogQuery(ctx, brandsQueryValidator)
    const brands = await directory.brands({ q: input.q, newMarketOnly: input.soloMercadoNuevos })
    const self = { href: expand('/v3/marcas{?q,soloMercadoNuevos}', input) }
    return respondList(ctx, BRAND, { self }, brands)
  }

  /** GET /v3/marcas/{id} */
  @inject()
  show(ctx: HttpContext, directory: BrandDirectory) {
    return respondEntry(ctx, BRAND, (id) => directory.brand(id))
  }

  /** GET /v3/marcas/bestmatch{?make} */
  @inject()
  async bestmatch(ctx: HttpContext, match: MatchVehicle) {
    const input = await catalogQuery(ctx, brandMatchValidator)
    return respondMatch(ctx, BRAND, await match.brand(input.make))
  }
}
