import { inject } from '@adonisjs/core'
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
  /** GET /v3/marcas{?q,soloMercadoNuevos} */
  @inject()
  async index(ctx: HttpContext, directory: BrandDirectory) {
    const input = await ctx.request.validateUsing(brandsQueryValidator, { data: queryOf(ctx) })
    const brands = await directory.brands({
      q: input.q,
      newMarketOnly: input.soloMercadoNuevos,
    })
    const self = { href: expand('/v3/marcas{?q,soloMercadoNuevos}', input) }
    return respondCatalog(ctx, listShapes({ self }, brands, brandFull, brandRef))
  }

  /** GET /v3/marcas/{id} */
  @inject()
  async show(ctx: HttpContext, directory: BrandDirectory) {
    const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
    const brand = await directory.brand(id)
    if (!brand) throw notFound('La marca')
    return respondCatalog(ctx, shapes(brand, brandFull, brandRef))
  }

  /** GET /v3/marcas/bestmatch{?make} */
  @inject()
  async bestmatch(ctx: HttpContext, resolver: VehicleResolver) {
    const input = await ctx.request.validateUsing(brandMatchValidator, { data: queryOf(ctx) })
    const brand = await resolver.brand(input.make)
    if (!brand.ok) throw matchProblem('make', brand.reason)
    return respondCatalog(ctx, shapes(brand.value, brandFull, brandRef))
  }
}
