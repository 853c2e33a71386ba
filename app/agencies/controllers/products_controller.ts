import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import AgencyDirectory from '#agencies/services/agency_directory'
import PlanUsage from '#agencies/services/plan_usage'
import { productsShapes } from '#agencies/transformers/products_transformer'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'

export default class ProductsController {
  /** GET /v3/productos/{adminmail}: the plan, with what is in use. */
  @inject()
  async show(ctx: HttpContext, directory: AgencyDirectory, usage: PlanUsage) {
    const agency = await agencyOfCaller(ctx, 'read')
    const [plan, used] = await Promise.all([directory.plan(agency.id), usage.execute(agency.id)])
    return respond(ctx, productsShapes(agency, plan, used))
  }
}
