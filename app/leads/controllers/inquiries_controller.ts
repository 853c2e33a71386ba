import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { pagedEnvelope } from '#core/http/envelopes'
import { path } from '#core/http/links'
import { requireAbility } from '#core/auth/abilities'
import { settings } from '#core/settings'
import AgencyDirectory from '#agencies/services/agency_directory'
import ReceiveInquiry from '#leads/services/receive_inquiry'
import ListInquiries from '#leads/services/list_inquiries'
import InquiryReader from '#leads/services/inquiry_reader'
import ResendWebhook from '#leads/services/resend_webhook'
import { listQueryValidator } from '#leads/validators/inquiry_validators'
import { InquiryTransformer, inquiryPath, moment } from '#leads/transformers/inquiry_transformer'

const LIST_QUERY = '{?operador,externalid,desde,hasta,pagina}'

@inject()
export default class InquiriesController {
  constructor(private agencies: AgencyDirectory) {}

  /** The agency of the path, or the 404/403 the endpoint answers when it does not exist for the app. */
  async #agency(ctx: HttpContext, status: 403 | 404 = 404) {
    const agency = await this.agencies.forApp(ctx.caller.id, ctx.params.adminmail)
    if (agency) return agency
    const detail = 'La agencia no existe para esta aplicación.'
    throw status === 403 ? Problem.forbidden(detail) : Problem.notFound(detail)
  }

  async store(ctx: HttpContext) {
    requireAbility(ctx, 'consultas:crear')
    const agency = await this.#agency(ctx)
    const service = await ctx.containerResolver.make(ReceiveInquiry)
    const result = await service.execute({ appId: ctx.caller.id, agencyId: agency.id, input: ctx.request.body() })
    if (!result.ok) {
      if (result.reason === 'unavailable') throw Problem.conflict(result.errors ?? {})
      throw Problem.badRequest(result.errors ?? {})
    }
    const inquiry = result.value
    return respond(
      ctx,
      { full: () => InquiryTransformer.full(inquiry, agency.adminMail), ref: () => InquiryTransformer.ref(inquiry, agency.adminMail) },
      { status: 201, location: settings.publicUrl + inquiryPath(agency.adminMail, inquiry.sid) }
    )
  }

  async index(ctx: HttpContext) {
    const agency = ctx.params.adminmail ? await this.#agency(ctx) : null
    const query = await listQueryValidator.validate(ctx.request.qs())
    const result = await (await ctx.containerResolver.make(ListInquiries)).execute(ctx.caller.id, agency, query)
    if (!result.ok) throw Problem.badRequest(result.errors ?? {})
    const { inquiries, total, adminMails, from, to, page, perPage } = result.value
    const qs = ctx.request.qs()
    const template = (agency ? path('consultas', agency.adminMail) : '/v3/consultas') + LIST_QUERY
    const values = { operador: qs.operador, externalid: qs.externalid, desde: qs.desde, hasta: qs.hasta }
    const envelope = (entry: (inquiry: (typeof inquiries)[number], adminMail: string) => unknown) =>
      pagedEnvelope(
        template,
        values,
        { page, perPage, total },
        inquiries.map((inquiry) => entry(inquiry, adminMails.get(inquiry.agencyId) ?? '')),
        { Desde: moment(from), Hasta: moment(to.minus({ milliseconds: 1 })) }
      )
    return respond(ctx, { full: () => envelope(InquiryTransformer.full), ref: () => envelope(InquiryTransformer.ref) })
  }

  async show(ctx: HttpContext) {
    const agency = await this.#agency(ctx)
    const reader = await ctx.containerResolver.make(InquiryReader)
    const audience = { appId: ctx.caller.id, agencyId: agency.id, receivesOtherLeads: agency.receivesOtherLeads }
    const inquiry = await reader.find(audience, ctx.params.sid)
    if (!inquiry) throw Problem.notFound('La consulta no existe para esta aplicación.')
    return respond(ctx, {
      full: () => InquiryTransformer.full(inquiry, agency.adminMail),
      ref: () => InquiryTransformer.ref(inquiry, agency.adminMail),
    })
  }

  async resend(ctx: HttpContext) {
    const agency = await this.#agency(ctx, 403)
    const result = await (await ctx.containerResolver.make(ResendWebhook)).execute(ctx.caller.id, agency, ctx.params.sid)
    if (!result.ok) {
      if (result.reason === 'not_found') throw Problem.notFound('La consulta no existe para esta aplicación.')
      throw Problem.badRequest(result.errors ?? {})
    }
    const { callback, payload } = result.value
    return respond(ctx, { full: () => payload, ref: () => payload }, { status: 202, location: callback })
  }
}
