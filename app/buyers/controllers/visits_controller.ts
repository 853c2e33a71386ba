import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import AgencyDirectory from '#agencies/services/agency_directory'
import VisitReport from '#buyers/services/visit_report'
import { visitPeriod, visitsQueryValidator } from '#buyers/validators/visits_query'
import { visitList } from '#buyers/transformers/visit_transformer'

@inject()
export default class VisitsController {
  constructor(
    private agencies: AgencyDirectory,
    private report: VisitReport
  ) {}

  /** GET /v3/visitas/{adminmail} — daily visits of the app's listings of the agency. */
  async index(ctx: HttpContext) {
    const query = await visitsQueryValidator.validate(ctx.request.qs())
    const period = visitPeriod(query)
    if (!period.ok) throw Problem.badRequest(period.errors!)
    const agency = await this.agencies.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound('La agencia no existe para la aplicación.')
    const operator = query.operador
      ? await this.agencies.member(agency.id, query.operador)
      : undefined
    if (operator === null)
      throw Problem.badRequest({ operador: ['El operador no es colaborador de la agencia.'] })
    const rows = await this.report.execute({
      appId: ctx.caller.id,
      agencyId: agency.id,
      ...period.value,
      externalId: query.externalid,
      operatorId: operator?.id,
    })
    const wireQuery = {
      externalid: query.externalid,
      desde: period.value.from,
      hasta: period.value.to,
      operador: query.operador,
    }
    return respond(ctx, visitList({ adminMail: agency.adminMail, query: wireQuery }, rows))
  }
}
