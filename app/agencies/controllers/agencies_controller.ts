import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import { segment } from '#core/http/links'
import { settings } from '#core/settings'
import InviteAgency from '#agencies/services/invite_agency'
import InvitationStatus from '#agencies/services/invitation_status'
import AgencyService from '#agencies/services/agency_service'
import ResolvePlace from '#agencies/services/resolve_place'
import { adminMailParam } from '#core/http/params'
import { NOT_FOR_APP, agencyOfCaller } from '#agencies/http/agency_of_caller'
import { problemFor } from '#agencies/http/problems'
import {
  agencyCreateValidator,
  agencyEditValidator,
  toInvitationInput,
} from '#agencies/validators/agency_validators'
import {
  agencyListShapes,
  agencyShapes,
  invitationShapes,
} from '#agencies/transformers/agency_transformer'

export default class AgenciesController {
  /** POST /v3/agencias: invites the future administrator (202 + Location of the status URI). */
  @inject()
  async store(ctx: HttpContext, resolvePlace: ResolvePlace, invite: InviteAgency) {
    const input = await ctx.request.validateUsing(agencyCreateValidator, {
      data: ctx.request.body(),
    })
    const place = await resolvePlace.execute({ region: input.Region, city: input.Ciudad })
    if (!place.ok) throw problemFor(place)
    const invited = await invite.execute(ctx.caller.id, toInvitationInput(input, place.value))
    if (!invited.ok) throw problemFor(invited)
    const location = `${settings.publicUrl}/v3/agencias/${segment(invited.value.adminEmail)}`
    return respond(ctx, invitationShapes(invited.value), { status: 202, location })
  }

  /** GET and OPTIONS /v3/agencias/{adminmail}: the agency, or its invitation's state. */
  @inject()
  async show(ctx: HttpContext, status: InvitationStatus) {
    const found = await status.execute(ctx.caller.id, await adminMailParam(ctx.params))
    if (found.state === 'registered') return respond(ctx, agencyShapes(found.agency))
    if (found.state === 'pending')
      return respond(ctx, invitationShapes(found.invitation), { status: 202 })
    if (found.state === 'expired') {
      throw new Problem(410, {
        detail:
          'La invitación venció sin registrarse; puede invitar de nuevo con POST /v3/agencias.',
      })
    }
    throw Problem.notFound(NOT_FOR_APP)
  }

  @inject()
  async index(ctx: HttpContext, agencies: AgencyService) {
    return respond(ctx, agencyListShapes(await agencies.listForApp(ctx.caller.id)))
  }

  @inject()
  async update(ctx: HttpContext, agencies: AgencyService) {
    const input = await ctx.request.validateUsing(agencyEditValidator, { data: ctx.request.body() })
    const agency = await agencyOfCaller(ctx, 'write')
    return respond(ctx, agencyShapes(await agencies.rename(agency.id, input.NombreComercial)))
  }
}
