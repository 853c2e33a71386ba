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
  private directory = new BrandDirectory()
  private resolver = new VehicleResolver()

  /** GET /v3/modelos{?marca,q,soloMercadoNuevos} */
  async index(ctx: HttpContext) {
    const input = await modelsQueryValidator.validate(queryOf(ctx))
    if (!(await this.directory.brandExists(input.marca))) {
      throw Problem.badRequest({ marca: [`La marca ${input.marca} no existe en el catálogo.`] })
    }
    const models = await this.directory.models({
      brandId: input.marca,
      q: input.q,
      newMarketOnly: input.soloMercadoNuevos,
    })
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
  async show(ctx: HttpContext) {
    const { id } = await idValidator.validate({ id: ctx.params.id })
    const model = await this.directory.model(id)
    if (!model) throw notFound('El modelo')
    return respondCatalog(ctx, shapes(model, modelFull, modelRef))
  }

  /** GET /v3/modelos/bestmatch{?make,model,bodystyle} */
  async bestmatch(ctx: HttpContext) {
    const input = await modelMatchValidator.validate(queryOf(ctx))
    const bodyType = input.bodystyle ? this.resolver.bodyType(input.bodystyle) : null
    if (bodyType && !bodyType.ok) throw matchProblem('bodystyle', bodyType.reason)
    const brand = await this.resolver.brand(input.make)
    if (!brand.ok) throw matchProblem('make', brand.reason)
    const model = await this.resolver.model(
      input.model,
      brand.value.id,
      bodyType?.ok ? bodyType.value.name : null
    )
    if (!model.ok) throw matchProblem('model', model.reason)
    return respondCatalog(ctx, shapes(model.value, modelFull, modelRef))
  }
}
