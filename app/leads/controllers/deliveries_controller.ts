import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import { DeliveryService } from '#core/outbound/deliveries'
import AgencyDirectory from '#agencies/services/agency_directory'
import InquiryReader from '#leads/services/inquiry_reader'
import { DeliveryTransformer } from '#leads/transformers/delivery_transformer'

/** GET /v3/consultas/{adminmail}/{sid}/entregas: the app's deliveries of the inquiry and every attempt. */
@inject()
export default class DeliveriesController {
  constructor(
    private agencies: AgencyDirectory,
    private reader: InquiryReader,
    private deliveries: DeliveryService
  ) {}

  async index(ctx: HttpContext) {
    const agency = await this.agencies.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound('La agencia no existe para esta aplicación.')
    const audience = {
      appId: ctx.caller.id,
      agencyId: agency.id,
      receivesOtherLeads: agency.receivesOtherLeads,
    }
    const inquiry = await this.reader.find(audience, ctx.params.sid)
    if (!inquiry) throw Problem.notFound('La consulta no existe para esta aplicación.')
    const deliveries = await this.deliveries
      .list('inquiry', inquiry.id)
      .where('app_id', ctx.caller.id)
    const list = (representation: 'full' | 'ref') =>
      DeliveryTransformer.list(deliveries, agency.adminMail, inquiry.sid, representation)
    return respond(ctx, { full: () => list('full'), ref: () => list('ref') })
  }
}
