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

const NOT_FOR_APP = 'La agencia no existe para esta aplicación.'
const KNOWN_EMAIL =
  'La dirección ya está registrada: el administrador debe contactar al soporte del servicio.'

@inject()
export default class AgenciesController {
  constructor(
    private agencies: AgencyService,
    private resolvePlace: ResolvePlace,
    private invite: InviteAgency,
    private status: InvitationStatus
  ) {}

  /** POST /v3/agencias: invites the future administrator (202 + Location of the status URI). */
  async store(ctx: HttpContext) {
    const input = await agencyCreateValidator.validate(ctx.request.body())
    const place = await this.resolvePlace.execute({ region: input.Region, city: input.Ciudad })
    if (!place.ok) throw Problem.badRequest(place.errors!)
    const invited = await this.invite.execute(ctx.caller.id, toInvitationInput(input, place.value))
    if (!invited.ok) {
      throw Problem.conflict(
        { AdminMail: [KNOWN_EMAIL] },
        'La dirección de correo ya está registrada en el servicio.'
      )
    }
    const location = `${settings.publicUrl}/v3/agencias/${segment(invited.value.adminEmail)}`
    return respond(ctx, invitationShapes(invited.value), { status: 202, location })
  }

  /** GET and OPTIONS /v3/agencias/{adminmail}: the agency, or its invitation's state. */
  async show(ctx: HttpContext) {
    const found = await this.status.execute(ctx.caller.id, await adminMailParam(ctx.params))
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

  async index(ctx: HttpContext) {
    return respond(ctx, agencyListShapes(await this.agencies.listForApp(ctx.caller.id)))
  }

  async update(ctx: HttpContext) {
    const input = await agencyEditValidator.validate(ctx.request.body())
    const agency = await this.agencies.findForApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden(NOT_FOR_APP)
    return respond(ctx, agencyShapes(await this.agencies.rename(agency, input.NombreComercial)))
  }
}
