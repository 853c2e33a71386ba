import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import { Problem } from '#core/http/problem'
import BrandDirectory from '#catalog/services/brand_directory'
import MatchVehicle from '#catalog/services/match_vehicle'
import { modelMatchValidator, modelsQueryValidator } from '#catalog/validators/catalog_validators'
import { MODEL } from '#catalog/transformers/vehicle_transformer'
import { catalogQuery, respondEntry, respondList, respondMatch } from './catalog_response.js'

export default class ModelsController {
  /** GET /v3/modelos{?marca,q,soloMercadoNuevos} */
  @inject()
  async index(ctx: HttpContext, directory: BrandDirectory) {
    const input = await catalogQuery(ctx, modelsQueryValidator)
    const { marca, q, soloMercadoNuevos } = input
    const models = await directory.listModels({
      brandId: marca,
      q,
      newMarketOnly: soloMercadoNuevos,
    })
    if (!models.ok)
      throw Problem.badRequest({ marca: [`La marca ${marca} no existe en el catálogo.`] })
    const self = { href: expand('/v3/modelos{?marca,q,soloMercadoNuevos}', input) }
    return respondList(ctx, MODEL, { self, marca: { href: `/v3/marcas/${marca}` } }, models.value)
  }

  /** GET /v3/modelos/{id} */
  @inject()
  show(ctx: HttpContext, directory: BrandDirectory) {
    return respondEntry(ctx, MODEL, (id) => directory.model(id))
  }

  /** GET /v3/modelos/bestmatch{?make,model,bodystyle} */
  @inject()
  async bestmatch(ctx: HttpContext, match: MatchVehicle) {
    const input = await catalogQuery(ctx, modelMatchValidator)
    return respondMatch(ctx, MODEL, await match.model(input))
  }
}
