/*
 * Failures of the listing services → problem documents. Spec §4.1/§7: reads
 * answer 404 for an agency or listing that does not exist for the app;
 * modifying calls answer 403 for the same (another app's listing looks
 * exactly like a missing one).
 */
import { Problem } from '#core/http/problem'
import type { Fail } from '#core/result'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { ListingRecord } from '#listings/services/listing_reader'

export type Outcome = { agency: Pick<AgencyView, 'adminMail'>; record: ListingRecord }

export function problemFor(failure: Fail<string>, mode: 'read' | 'write'): Problem {
  switch (failure.reason) {
    case 'no_agency':
    case 'not_found':
      return mode === 'read'
        ? Problem.notFound('La agencia o la publicación no existe para esta aplicación.')
        : Problem.forbidden('La agencia o la publicación no existe para esta aplicación.')
    case 'invalid':
      return Problem.badRequest(failure.errors ?? {})
    case 'conflict':
      return Problem.conflict(failure.errors ?? { _: [failure.message ?? 'Conflicto.'] })
    case 'precondition':
      return Problem.preconditionFailed()
    default:
      return Problem.badRequest(failure.errors ?? { _: [failure.message ?? 'Solicitud inválida.'] })
  }
}
