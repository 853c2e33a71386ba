import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import BrandDirectory from '#catalog/services/brand_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import {
  brandMatchValidator,
  brandsQueryValidator,
  idValidator,
} from '#catalog/validators/catalog_validators'
import { brandFull, brandRef, listShapes, shapes } from '#catalog/transformers/vehicle_transformer'
import { matchProblem, notFound, queryOf, respondCatalog } from './catalog_response.js'

export default class BrandsController {
  private directory = new BrandDirectory()
  private resolver = new VehicleResolver()

  /** GET /v3/marcas{?q,soloMercadoNuevos} */
  async index(ctx: HttpContext) {
    const input = await brandsQueryValidator.validate(queryOf(ctx))
    const brands = await this.directory.brands({
      q: input.q,
      newMarketOnly: input.soloMercadoNuevos,
    })
    const self = { href: expand('/v3/marcas{?q,soloMercadoNuevos}', input) }
    return respondCatalog(ctx, listShapes({ self }, brands, brandFull, brandRef))
  }

  /** GET /v3/marcas/{id} */
  async show(ctx: HttpContext) {
    const { id } = await idValidator.validate({ id: ctx.params.id })
    const brand = await this.directory.brand(id)
    if (!brand) throw notFound('La marca')
    return respondCatalog(ctx, shapes(brand, brandFull, brandRef))
  }

  /** GET /v3/marcas/bestmatch{?make} */
  async bestmatch(ctx: HttpContext) {
    const input = await brandMatchValidator.validate(queryOf(ctx))
    const brand = await this.resolver.brand(input.make)
    if (!brand.ok) throw matchProblem('make', brand.reason)
    return respondCatalog(ctx, shapes(brand.value, brandFull, brandRef))
  }
}
