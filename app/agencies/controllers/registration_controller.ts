import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { errors as vineErrors } from '@vinejs/vine'
import { Problem } from '#core/http/problem'
import { errorsFromVine } from '#core/http/exception_handler'
import { settings } from '#core/settings'
import RegisterAgency from '#agencies/services/register_agency'
import LoadPlaceNames from '#agencies/services/place_names'
import type Invitation from '#agencies/models/invitation'
import { registrationValidator } from '#agencies/validators/agency_validators'
import { agencyRef } from '#agencies/transformers/agency_transformer'
import { renderView } from '#agencies/views'

const GONE = {
  title: 'La invitación ya no está disponible',
  paragraphs: [
    'Este enlace de registro ya fue usado o venció.',
    'Si todavía necesita registrar la agencia, pida a la aplicación que lo invitó una nueva invitación.',
  ],
}
const UNKNOWN = {
  title: 'Enlace de registro desconocido',
  paragraphs: ['Revise que la dirección esté completa, tal como figura en el correo de invitación.'],
}

/** The invited person's registration page (HTML, no JavaScript needed) and its form. */
@inject()
export default class RegistrationController {
  constructor(
    private register: RegisterAgency,
    private placeNames: LoadPlaceNames
  ) {}

  async show(ctx: HttpContext) {
    const pending = await this.register.pending(ctx.params.token)
    if (!pending.ok) return this.message(ctx, pending.reason === 'gone' ? 410 : 404)
    return this.page(ctx, pending.value, {}, {}, 200)
  }

  async store(ctx: HttpContext) {
    const json = wantsJson(ctx)
    const body = ctx.request.only(['AdminNombre', 'AdminApellido', 'Password'])
    const pending = await this.register.pending(ctx.params.token)
    if (!pending.ok) {
      const status = pending.reason === 'gone' ? 410 : 404
      if (json) throw new Problem(status, { detail: (status === 410 ? GONE : UNKNOWN).paragraphs[0] })
      return this.message(ctx, status)
    }
    let input
    try {
      input = await registrationValidator.validate(body)
    } catch (error) {
      if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
      const errors = errorsFromVine(error.messages)
      if (json) throw Problem.badRequest(errors)
      return this.page(ctx, pending.value, body, errors, 400)
    }
    const registered = await this.register.execute(ctx.params.token, {
      firstName: input.AdminNombre,
      lastName: input.AdminApellido,
      password: input.Password,
    })
    if (!registered.ok) {
      if (json) throw new Problem(410, { detail: GONE.paragraphs[0] })
      return this.message(ctx, 410)
    }
    const agency = registered.value
    const location = `${settings.publicUrl}${agencyRef(agency).href}`
    if (json) {
      return ctx.response.status(201).header('Location', location).json(agencyRef(agency))
    }
    return this.html(ctx, 201, 'registration_message', {
      title: 'Registro completo',
      paragraphs: [
        `La agencia ${agency.tradeName} quedó registrada y usted es su administrador (${agency.adminEmail}).`,
        'Ya puede cerrar esta página: la aplicación que lo invitó fue notificada.',
      ],
    })
  }

  private async page(
    ctx: HttpContext,
    invitation: Invitation,
    values: Record<string, unknown>,
    errors: Record<string, string[]>,
    status: number
  ) {
    const names = await this.placeNames.execute([invitation])
    const place = [invitation.address, names.city(invitation.cityId), names.region(invitation.regionId)]
      .filter(Boolean)
      .join(', ')
    const value = (name: string, fallback: string | null) =>
      typeof values[name] === 'string' ? (values[name] as string) : (fallback ?? '')
    const fields = [
      {
        name: 'AdminNombre', label: 'Nombre', type: 'text', autocomplete: 'given-name', maxlength: 50,
        value: value('AdminNombre', invitation.adminFirstName), hint: 'Hasta 50 caracteres.',
      },
      {
        name: 'AdminApellido', label: 'Apellido', type: 'text', autocomplete: 'family-name', maxlength: 50,
        value: value('AdminApellido', invitation.adminLastName), hint: 'Hasta 50 caracteres.',
      },
      {
        name: 'Password', label: 'Contraseña', type: 'password', autocomplete: 'new-password', minlength: 10,
        maxlength: 200, value: '', hint: 'Al menos 10 caracteres.',
      },
    ].map((field) => {
      const fieldErrors = errors[field.name] ?? []
      const describedBy = `${field.name}-ayuda` + (fieldErrors.length ? ` ${field.name}-error` : '')
      return { minlength: 1, ...field, errors: fieldErrors, describedBy }
    })
    return this.html(ctx, status, 'registration', {
      title: `Registro de ${invitation.tradeName}`,
      invitation,
      place,
      expires: invitation.expiresAt.setZone(settings.timezone).setLocale('es').toFormat("d 'de' MMMM 'de' yyyy, HH:mm"),
      action: ctx.request.url(),
      fields,
      hasErrors: Object.keys(errors).length > 0,
    })
  }

  private message(ctx: HttpContext, status: 404 | 410) {
    return this.html(ctx, status, 'registration_message', status === 410 ? GONE : UNKNOWN)
  }

  private async html(ctx: HttpContext, status: number, view: string, data: Record<string, unknown>) {
    ctx.response.status(status)
    ctx.response.header('Content-Type', 'text/html; charset=utf-8')
    ctx.response.header('Cache-Control', 'no-store')
    ctx.response.header('Referrer-Policy', 'no-referrer')
    ctx.response.header('X-Frame-Options', 'DENY')
    return ctx.response.send(await renderView(view, data))
  }
}

/** JSON clients (body or Accept) get problem documents; browsers get pages. */
function wantsJson(ctx: HttpContext) {
  if (ctx.request.is(['json', '+json']) ) return true
  return ctx.request.accepts(['text/html', 'application/json']) === 'application/json'
}
