import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import { negotiate } from '#core/http/negotiation'
import { requireAbility } from '#core/auth/abilities'
import { settings } from '#core/settings'
import AgencyDirectory from '#agencies/services/agency_directory'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import ListInquiries from '#leads/services/list_inquiries'
import InquiryReader from '#leads/services/inquiry_reader'
import ResendWebhook from '#leads/services/resend_webhook'
import { listQueryValidator } from '#leads/validators/inquiry_validators'
import { InquiryTransformer, inquiryPath } from '#leads/transformers/inquiry_transformer'

const NO_AGENCY = 'La agencia no existe para esta aplicación.'
const NO_INQUIRY = 'La consulta no existe para esta aplicación.'

@inject()
export default class InquiriesController {
  constructor(
    private agencies: AgencyDirectory,
    private intake: ReceiveInquiry,
    private lister: ListInquiries,
    private reader: InquiryReader,
    private resender: ResendWebhook
  ) {}

  /** The agency of the path; 404 (or 403 where the spec says so) when it does not exist for the app. */
  async #agency(ctx: HttpContext, status: 403 | 404 = 404) {
    const agency = await this.agencies.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw status === 403 ? Problem.forbidden(NO_AGENCY) : Problem.notFound(NO_AGENCY)
    return agency
  }

  async store(ctx: HttpContext) {
    requireAbility(ctx, 'consultas:crear')
    negotiate(ctx) // 406 before anything is written, not after
    const agency = await this.#agency(ctx)
    const result = await this.intake.execute({
      appId: ctx.caller.id,
      agencyId: agency.id,
      agency,
      input: ctx.request.body(),
    })
    if (!result.ok) {
      throw result.reason === 'unavailable'
        ? Problem.conflict(result.errors ?? {})
        : Problem.badRequest(result.errors ?? {})
    }
    const location = settings.publicUrl + inquiryPath(agency.adminMail, result.value.sid)
    return respond(ctx, InquiryTransformer.shapes(result.value, agency.adminMail), {
      status: 201,
      location,
    })
  }

  async index(ctx: HttpContext) {
    const agency = ctx.params.adminmail ? await this.#agency(ctx) : null
    const query = await listQueryValidator.validate(ctx.request.qs())
    const result = await this.lister.execute(ctx.caller.id, agency, query)
    if (!result.ok) throw Problem.badRequest(result.errors ?? {})
    return respond(
      ctx,
      InquiryTransformer.page(result.value, agency?.adminMail ?? null, ctx.request.qs())
    )
  }

  async show(ctx: HttpContext) {
    const agency = await this.#agency(ctx)
    const audience = {
      appId: ctx.caller.id,
      agencyId: agency.id,
      receivesOtherLeads: agency.receivesOtherLeads,
    }
    const inquiry = await this.reader.find(audience, ctx.params.sid)
    if (!inquiry) throw Problem.notFound(NO_INQUIRY)
    return respond(ctx, InquiryTransformer.shapes(inquiry, agency.adminMail))
  }

  async resend(ctx: HttpContext) {
    negotiate(ctx)
    const agency = await this.#agency(ctx, 403)
    const result = await this.resender.execute(ctx.caller.id, agency, ctx.params.sid)
    if (!result.ok)
      throw result.reason === 'not_found'
        ? Problem.notFound(NO_INQUIRY)
        : Problem.badRequest(result.errors ?? {})
    const { callback, payload } = result.value
    return respond(
      ctx,
      { full: () => payload, ref: () => payload },
      { status: 202, location: callback }
    )
  }
}
