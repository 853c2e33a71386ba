/*
 * Failures of the leads services → problem documents: the one place where
 * their reasons get a status, wire field names and Spanish messages
 * (docs/spec.md §4.5, §7). Exhaustive: a new reason does not compile until it
 * is mapped here.
 */
import { Problem } from '#core/http/problem'
import type { ReceiveFailure } from '#leads/services/receive_inquiry'
import type { ListFailure } from '#leads/services/list_inquiries'
import type { ResendFailure } from '#leads/services/resend_webhook'
import type { NotificationTestFailure } from '#leads/services/send_notification_test'

export type LeadsFailure = ReceiveFailure | ListFailure | ResendFailure | NotificationTestFailure

export const NO_INQUIRY = 'La consulta no existe para esta aplicación.'

export function problemFor(reason: LeadsFailure): Problem {
  switch (reason) {
    case 'listing_not_found':
      return Problem.badRequest({ ExternalId: ['La publicación no existe en la agencia.'] })
    case 'listing_inactive':
      return Problem.conflict({
        ExternalId: ['La publicación no está activa: no recibe consultas.'],
      })
    case 'version_not_found':
      return Problem.badRequest({ VersionId: ['La versión no existe en el catálogo.'] })
    case 'agency_not_found':
      return Problem.badRequest({ _: ['La agencia no existe.'] })
    case 'period_reversed':
      return Problem.badRequest({ hasta: ['El campo hasta no debe ser anterior a desde.'] })
    case 'operator_or_agency_required':
      return Problem.badRequest({ operador: ['Indique operador o la agencia en la ruta.'] })
    case 'not_a_member':
      return Problem.badRequest({ operador: ['El operador no es colaborador de la agencia.'] })
    case 'inquiry_not_found':
      return Problem.notFound(NO_INQUIRY)
    case 'buyer_erased':
      return new Problem(410, {
        detail:
          'Los datos del interesado de esta consulta fueron suprimidos (Ley 25.326): no puede reenviarse.',
      })
    case 'resend_window_closed':
      return Problem.badRequest({
        _: ['La consulta ya no puede reenviarse: su plazo de reenvío terminó.'],
      })
    case 'no_active_webhook':
      return Problem.badRequest({ _: ['No hay un webhook activo configurado para la agencia.'] })
    // Like the app subscriptions' test without a subscription (docs/design.md §14): 404.
    case 'no_webhook':
      return Problem.notFound(
        'La agencia no tiene un webhook (PublicacionConsultadaWebHook) configurado para esta aplicación.'
      )
    case 'no_adf_hook':
      return Problem.notFound(
        'La agencia no tiene un ADF hook (PublicacionConsultadaAdfHook) configurado para esta aplicación.'
      )
    default:
      return unmapped(reason)
  }
}

function unmapped(reason: never): never {
  throw new Error(`Unmapped leads failure: ${String(reason)}`)
}
