import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import AgencyDirectory from '#agencies/services/agency_directory'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import VisitReport from '#buyers/services/visit_report'
import { visitPeriod, visitsQueryValidator } from '#buyers/validators/visits_query'
import { visitList } from '#buyers/transformers/visit_transformer'

export default class VisitsController {
  /** GET /v3/visitas/{adminmail} — daily visits of the app's listings of the agency. */
  @inject()
  async index(ctx: HttpContext, agencies: AgencyDirectory, report: VisitReport) {
    const query = await ctx.request.validateUsing(visitsQueryValidator, { data: ctx.request.qs() })
    const period = visitPeriod(query)
    if (!period.ok) throw Problem.badRequest(period.errors!)
    const agency = await agencyOfCaller(ctx, 'read', 'La agencia no existe para la aplicación.')
    const operator = query.operador ? await agencies.member(agency.id, query.operador) : undefined
    if (operator === null)
      throw Problem.badRequest({ operador: ['El operador no es colaborador de la agencia.'] })
    const rows = await report.execute({
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
