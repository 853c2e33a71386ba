/*
 * /v3/privacidad/{adminmail} (docs/design.md §16, §25): the agency's
 * retention (changed only by the app that invited the agency), its privacy
 * requests (every linked app lists them) and an access request's export (the
 * filing app's).
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { negotiate } from '#core/http/negotiation'
import { settings } from '#core/settings'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import FilePrivacyRequest from '#buyers/services/privacy/file_privacy_request'
import PrivacyRequests from '#buyers/services/privacy/privacy_requests'
import RetentionSettings from '#buyers/services/privacy/retention_settings'
import {
  privacyRequestValidator,
  requestErrors,
  requestListValidator,
  retentionValidator,
  toRequest,
} from '#buyers/validators/privacy'
import {
  exportShapes,
  requestListShapes,
  requestPath,
  requestShapes,
  retentionShapes,
} from '#buyers/transformers/privacy_transformer'
import { problemFor } from '#buyers/http/problems'

export default class PrivacyController {
  @inject()
  async show(ctx: HttpContext, retention: RetentionSettings) {
    const agency = await agencyOfCaller(ctx, 'read')
    return respond(
      ctx,
      retentionShapes(await retention.read(agency.id, ctx.caller.id), agency.adminMail)
    )
  }

  @inject()
  async update(ctx: HttpContext, retention: RetentionSettings) {
    negotiate(ctx)
    const agency = await agencyOfCaller(ctx, 'write')
    const body = await ctx.request.validateUsing(retentionValidator)
    const written = await retention.write(agency.id, ctx.caller.id, body.RetencionDias)
    if (!written.ok) throw problemFor(written.reason)
    return respond(ctx, retentionShapes(written.value, agency.adminMail))
  }

  @inject()
  async store(ctx: HttpContext, file: FilePrivacyRequest) {
    negotiate(ctx)
    const agency = await agencyOfCaller(ctx, 'write')
    const body = await ctx.request.validateUsing(privacyRequestValidator)
    const errors = requestErrors(body)
    if (errors) throw Problem.badRequest(errors)
    const { kind, identifiers } = toRequest(body)
    const filed = await file.execute({
      appId: ctx.caller.id,
      agencyId: agency.id,
      kind,
      identifiers,
    })
    const request = filed.value
    return respond(ctx, requestShapes(request, agency.adminMail, ctx.caller.id), {
      status: 202,
      location: settings.publicUrl + requestPath(agency.adminMail, request.id),
    })
  }

  @inject()
  async index(ctx: HttpContext, requests: PrivacyRequests) {
    const agency = await agencyOfCaller(ctx, 'read')
    const query = await ctx.request.validateUsing(requestListValidator, { data: ctx.request.qs() })
    const list = await requests.page(
      { agencyId: agency.id, appId: ctx.caller.id },
      query.pagina ?? 1
    )
    return respond(ctx, requestListShapes(list, agency.adminMail, ctx.caller.id))
  }

  @inject()
  async showRequest(ctx: HttpContext, requests: PrivacyRequests) {
    const agency = await agencyOfCaller(ctx, 'read')
    const found = await requests.one({ agencyId: agency.id, appId: ctx.caller.id }, ctx.params.id)
    if (!found.ok) throw problemFor(found.reason)
    return respond(ctx, requestShapes(found.value, agency.adminMail, ctx.caller.id))
  }

  @inject()
  async data(ctx: HttpContext, requests: PrivacyRequests) {
    const agency = await agencyOfCaller(ctx, 'read')
    const found = await requests.export(
      { agencyId: agency.id, appId: ctx.caller.id },
      ctx.params.id
    )
    if (!found.ok) throw problemFor(found.reason)
    // A buyer's personal data: no cache (a proxy's, the client's) may keep a copy the suppression cannot reach.
    ctx.response.header('Cache-Control', 'no-store')
    return respond(ctx, exportShapes(found.value.data, found.value.request, agency.adminMail))
  }
}
