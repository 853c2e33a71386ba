import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { errors as vineErrors } from '@vinejs/vine'
import { Problem } from '#core/http/problem'
import { errorsFromVine } from '#core/http/exception_handler'
import { settings } from '#core/settings'
import RegisterAgency from '#agencies/services/register_agency'
import LoadPlaceNames from '#agencies/services/place_names'
import type Invitation from '#agencies/models/invitation'
import { registrationMessages, registrationValidator } from '#agencies/validators/agency_validators'
import { agencyRef } from '#agencies/transformers/agency_transformer'
import {
  GONE,
  UNKNOWN,
  registeredPage,
  registrationPage,
} from '#agencies/transformers/registration_page'
import { renderView } from '#agencies/views'

/** The invited person's registration page (HTML, no JavaScript needed) and its form; JSON clients too. */
export default class RegistrationController {
  @inject()
  async show(ctx: HttpContext, register: RegisterAgency, placeNames: LoadPlaceNames) {
    const pending = await register.pending(ctx.params.token)
    if (!pending.ok) return message(ctx, pending.reason === 'gone' ? 410 : 404)
    return page(ctx, placeNames, pending.value, {}, {}, 200)
  }

  @inject()
  async store(ctx: HttpContext, register: RegisterAgency, placeNames: LoadPlaceNames) {
    const json = wantsJson(ctx)
    const body = ctx.request.only(['AdminNombre', 'AdminApellido', 'Password'])
    const pending = await register.pending(ctx.params.token)
    if (!pending.ok) return refuse(ctx, json, pending.reason === 'gone' ? 410 : 404)
    const [error, input] = await ctx.request.tryValidateUsing(registrationValidator, {
      data: body,
      messagesProvider: registrationMessages,
    })
    if (error) {
      if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
      if (json) throw Problem.badRequest(errorsFromVine(error.messages))
      return page(ctx, placeNames, pending.value, body, errorsFromVine(error.messages), 400)
    }
    const registered = await register.execute(ctx.params.token, {
      firstName: input.AdminNombre,
      lastName: input.AdminApellido,
      password: input.Password,
    })
    if (!registered.ok) return refuse(ctx, json, 410)
    const agency = registered.value
    if (json) {
      const location = `${settings.publicUrl}${agencyRef(agency).href}`
      return ctx.response.status(201).header('Location', location).json(agencyRef(agency))
    }
    return html(
      ctx,
      201,
      'registration_message',
      registeredPage(agency.tradeName, agency.adminEmail)
    )
  }
}

async function page(
  ctx: HttpContext,
  placeNames: LoadPlaceNames,
  invitation: Invitation,
  values: object,
  errors: Record<string, string[]>,
  status: number
) {
  const names = await placeNames.execute([invitation])
  const data = registrationPage(
    invitation,
    names,
    ctx.request.url(),
    values as Record<string, unknown>,
    errors
  )
  return html(ctx, status, 'registration', data)
}

function refuse(ctx: HttpContext, json: boolean, status: 404 | 410) {
  if (json) throw new Problem(status, { detail: (status === 410 ? GONE : UNKNOWN).paragraphs[0] })
  return message(ctx, status)
}

function message(ctx: HttpContext, status: 404 | 410) {
  return html(ctx, status, 'registration_message', status === 410 ? GONE : UNKNOWN)
}

async function html(ctx: HttpContext, status: number, view: string, data: Record<string, unknown>) {
  ctx.response.status(status)
  ctx.response.header('Content-Type', 'text/html; charset=utf-8')
  ctx.response.header('Cache-Control', 'no-store')
  ctx.response.header('Referrer-Policy', 'no-referrer')
  ctx.response.header('X-Frame-Options', 'DENY')
  return ctx.response.send(await renderView(view, data))
}

/** JSON clients (body or Accept) get problem documents; browsers get pages. */
function wantsJson(ctx: HttpContext) {
  if (ctx.request.is(['json', '+json'])) return true
  return ctx.request.accepts(['text/html', 'application/json']) === 'application/json'
}
