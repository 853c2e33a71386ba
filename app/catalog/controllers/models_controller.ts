import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { expand } from '#core/http/links'
import { Problem } from '#core/http/problem'
import BrandDirectory from '#catalog/services/brand_directory'
import VehicleResolver from '#catalog/services/vehicle_resolver'
import {
  idValidator,
  modelMatchValidator,
  modelsQueryValidator,
} from '#catalog/validators/catalog_validators'
import { listShapes, modelFull, modelRef, shapes } from '#catalog/transformers/vehicle_transformer'
import { matchProblem, notFound, queryOf, respondCatalog } from './catalog_response.js'

export default class ModelsController {
  /** GET /v3/modelos{?marca,q,soloMercadoNuevos} */
  @inject()
  async index(ctx: HttpContext, directory: BrandDirectory) {
    const input = await ctx.request.validateUsing(modelsQueryValidator, { data: queryOf(ctx) })
    const models = await directory.models({
      brandId: input.marca,
      q: input.q,
      newMarketOnly: input.soloMercadoNuevos,
    })
    // Models found name an existing brand: only an empty list asks whether it exists.
    if (models.length === 0 && !(await directory.brandExists(input.marca))) {
      throw Problem.badRequest({ marca: [`La marca ${input.marca} no existe en el catálogo.`] })
    }
    const self = { href: expand('/v3/modelos{?marca,q,soloMercadoNuevos}', input) }
    return respondCatalog(
      ctx,
      listShapes(
        { self, marca: { href: `/v3/marcas/${input.marca}` } },
        models,
        modelFull,
        modelRef
      )
    )
  }

  /** GET /v3/modelos/{id} */
  @inject()
  async show(ctx: HttpContext, directory: BrandDirectory) {
    const { id } = await ctx.request.validateUsing(idValidator, { data: { id: ctx.params.id } })
    const model = await directory.model(id)
    if (!model) throw notFound('El modelo')
    return respondCatalog(ctx, shapes(model, modelFull, modelRef))
  }

  /** GET /v3/modelos/bestmatch{?make,model,bodystyle} */
  @inject()
  async bestmatch(ctx: HttpContext, resolver: VehicleResolver) {
    const input = await ctx.request.validateUsing(modelMatchValidator, { data: queryOf(ctx) })
    const bodyType = input.bodystyle ? resolver.bodyType(input.bodystyle) : null
    if (bodyType && !bodyType.ok) throw matchProblem('bodystyle', bodyType.reason)
    const brandId = await resolver.brandId(input.make)
    if (!brandId.ok) throw matchProblem('make', brandId.reason)
    const model = await resolver.model(
      input.model,
      brandId.value,
      bodyType?.ok ? bodyType.value.name : null
    )
    if (!model.ok) throw matchProblem('model', model.reason)
    return respondCatalog(ctx, shapes(model.value, modelFull, modelRef))
  }
}
