import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { DeliveryService } from '#core/outbound/deliveries'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import InquiryReader from '#leads/services/inquiry_reader'
import { deliveryListShapes } from '#leads/transformers/delivery_transformer'

/** GET /v3/consultas/{adminmail}/{sid}/entregas: the app's deliveries of the inquiry and every attempt. */
export default class DeliveriesController {
  @inject()
  async index(ctx: HttpContext, reader: InquiryReader, deliveryService: DeliveryService) {
    const agency = await agencyOfCaller(ctx, 'read')
    const audience = {
      appId: ctx.caller.id,
      agencyId: agency.id,
      receivesOtherLeads: agency.receivesOtherLeads,
    }
    const inquiry = await reader.find(audience, ctx.params.sid)
    if (!inquiry) throw Problem.notFound('La consulta no existe para esta aplicación.')
    const deliveries = await deliveryService
      .list('inquiry', inquiry.id)
      .where('app_id', ctx.caller.id)
    return respond(ctx, deliveryListShapes(deliveries, agency.adminMail, inquiry.sid))
  }
}
