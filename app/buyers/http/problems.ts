/*
 * Failures of the buyers' privacy services → problem documents: the one place
 * where their reasons get a status and Spanish messages (docs/design.md §16).
 * Exhaustive: a new reason does not compile until it is mapped here.
 */
import { Problem } from '#core/http/problem'
import type { PrivacyReadFailure } from '#buyers/services/privacy/privacy_requests'
import type { RetentionFailure } from '#buyers/services/privacy/retention_settings'

export type BuyersFailure = PrivacyReadFailure | RetentionFailure

export function problemFor(reason: BuyersFailure): Problem {
  switch (reason) {
    case 'request_not_found':
      return Problem.notFound('La solicitud no existe para esta aplicación.')
    case 'not_an_access_request':
      return Problem.notFound('Solo las solicitudes de Acceso tienen datos para descargar.')
    case 'export_pending':
      return new Problem(409, {
        detail: 'La solicitud todavía está Pendiente: los datos estarán al terminar.',
        errors: { _: ['La solicitud todavía está Pendiente.'] },
      })
    case 'export_purged':
      return new Problem(410, {
        detail: 'Los datos exportados se conservan 30 días y ya fueron eliminados.',
      })
    case 'export_of_another_app':
      return Problem.forbidden(
        'Los datos de una solicitud de Acceso los descarga solo la aplicación que la presentó.'
      )
    case 'not_inviting_app':
      return new Problem(403, {
        detail: 'Solo la aplicación que invitó a la agencia puede cambiar su retención.',
        errors: {
          RetencionDias: [
            'Solo la aplicación que invitó a la agencia puede cambiar RetencionDias.',
          ],
        },
      })
    default:
      return unmapped(reason)
  }
}

function unmapped(reason: never): never {
  throw new Error(`Unmapped buyers failure: ${String(reason)}`)
}
