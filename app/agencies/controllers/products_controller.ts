import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import AgencyDirectory from '#agencies/services/agency_directory'
import PlanUsage from '#agencies/services/plan_usage'
import { productsShapes } from '#agencies/transformers/products_transformer'

@inject()
export default class ProductsController {
  constructor(
    private directory: AgencyDirectory,
    private usage: PlanUsage
  ) {}

  /** GET /v3/productos/{adminmail}: the plan, with what is in use. */
  async show(ctx: HttpContext) {
    const agency = await this.directory.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound('La agencia no existe para esta aplicación.')
    const [plan, used] = await Promise.all([
      this.directory.plan(agency.id),
      this.usage.execute(agency.id),
    ])
    return respond(ctx, productsShapes(agency, plan, used))
  }
}
