import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { negotiate } from '#core/http/negotiation'
import { requireAbility } from '#core/auth/abilities'
import { settings } from '#core/settings'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import ListInquiries from '#leads/services/list_inquiries'
import InquiryReader from '#leads/services/inquiry_reader'
import ResendWebhook from '#leads/services/resend_webhook'
import { listQueryValidator } from '#leads/validators/inquiry_validators'
import { readIntake } from '#leads/validators/intake_request'
import {
  inquiryListShapes,
  inquiryPath,
  inquiryShapes,
} from '#leads/transformers/inquiry_transformer'
import { problemFor } from '#leads/http/problems'
import { inquiryOfCaller } from '#leads/http/inquiry_of_caller'

export default class InquiriesController {
  /** POST /v3/consultas/{adminmail}: an unknown agency is a 404 here (docs/spec.md §7). */
  @inject()
  async store(ctx: HttpContext, intake: ReceiveInquiry) {
    requireAbility(ctx, 'consultas:crear')
    negotiate(ctx) // 406 before anything is written, not after
    const agency = await agencyOfCaller(ctx, 'read')
    const read = await readIntake(ctx.request.body())
    if (!read.ok) throw Problem.badRequest(read.errors)
    const result = await intake.execute({
      appId: ctx.caller.id,
      agencyId: agency.id,
      agency,
      request: read.value,
    })
    if (!result.ok) throw problemFor(result.reason)
    const location = settings.publicUrl + inquiryPath(agency.adminMail, result.value.sid)
    return respond(ctx, inquiryShapes(result.value, agency.adminMail), {
      status: 201,
      location,
    })
  }

  @inject()
  async index(ctx: HttpContext, lister: ListInquiries) {
    const agency = ctx.params.adminmail ? await agencyOfCaller(ctx, 'read') : null
    const query = await ctx.request.validateUsing(listQueryValidator, { data: ctx.request.qs() })
    const result = await lister.execute(ctx.caller.id, agency, {
      operator: query.operador,
      externalId: query.externalid,
      from: query.desde,
      to: query.hasta,
      page: query.pagina,
    })
    if (!result.ok) throw problemFor(result.reason)
    return respond(
      ctx,
      inquiryListShapes(result.value, agency?.adminMail ?? null, ctx.request.qs())
    )
  }

  @inject()
  async show(ctx: HttpContext, reader: InquiryReader) {
    const { agency, inquiry } = await inquiryOfCaller(ctx, reader)
    return respond(ctx, inquiryShapes(inquiry, agency.adminMail))
  }

  @inject()
  async resend(ctx: HttpContext, resender: ResendWebhook) {
    negotiate(ctx)
    const agency = await agencyOfCaller(ctx, 'write')
    const result = await resender.execute(ctx.caller.id, agency, ctx.params.sid)
    if (!result.ok) throw problemFor(result.reason)
    const { callback, payload } = result.value
    return respond(
      ctx,
      { full: () => payload, ref: () => payload },
      { status: 202, location: callback }
    )
  }
}
