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

/** Also the detail of an unknown `{adminmail}` here: the two look alike on purpose. */
export const NOT_FOR_APP = 'La agencia o la publicación no existe para esta aplicación.'

export function problemFor(failure: Fail<string>, mode: 'read' | 'write'): Problem {
  switch (failure.reason) {
    case 'not_found':
      return mode === 'read' ? Problem.notFound(NOT_FOR_APP) : Problem.forbidden(NOT_FOR_APP)
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
