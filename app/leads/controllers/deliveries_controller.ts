import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import InquiryReader from '#leads/services/inquiry_reader'
import { inquiryOfCaller } from '#leads/http/inquiry_of_caller'
import { deliveryListShapes } from '#leads/transformers/delivery_transformer'

/** GET /v3/consultas/{adminmail}/{sid}/entregas: the app's deliveries of the inquiry and every attempt. */
export default class DeliveriesController {
  @inject()
  async index(ctx: HttpContext, reader: InquiryReader) {
    const { agency, inquiry } = await inquiryOfCaller(ctx, reader)
    const list = await reader.deliveries(inquiry.id, ctx.caller.id)
    return respond(ctx, deliveryListShapes(list, agency.adminMail, inquiry.sid))
  }
}
