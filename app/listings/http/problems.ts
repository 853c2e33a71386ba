/*
 * Failures of the listing services → problem documents: the one place where
 * their reasons get a status, wire field names and Spanish messages.
 * Spec §4.1/§7: reads answer 404 for an agency or listing that does not exist
 * for the app; modifying calls answer 403 for the same (another app's listing
 * looks exactly like a missing one). Exhaustive: a new reason or issue does
 * not compile until it is mapped here.
 */
import { preconditionFailed } from '#core/http/etag'
import { Problem, type ProblemErrors } from '#core/http/problem'
import type { AgencyView } from '#agencies/services/agency_directory'
import type { ListingRecord } from '#listings/services/listing_record'
import type { FixedField, ListingFailure, ListingIssue } from '#listings/services/listing_failures'
import { WIRE } from '#listings/validators/listing'
import { MAX_KM_PER_YEAR } from '#listings/services/listing_rules'
import { ARCHIVE_FLOOR, ARCHIVE_SHARE, type SyncRefusal } from '#listings/services/start_sync'
import {
  MAX_ROW_BYTES,
  type RowRefusal,
  type RowRejection,
  type SyncFailure,
} from '#listings/stores/sync_store'
import { errorsFromVine } from '#core/http/exception_handler'
import { unknownMemberErrors } from '#core/http/unknown_members'
import { capErrors } from '#core/http/error_map'

export type Outcome = { agency: Pick<AgencyView, 'adminMail'>; record: ListingRecord }

/** Also the detail of an unknown `{adminmail}` here: the two look alike on purpose. */
export const NOT_FOR_APP = 'La agencia o la publicación no existe para esta aplicación.'

const MATCH = {
  not_found: (what: string) => `No se encontró ${what} en el catálogo.`,
  ambiguous: (what: string) => `${what} es ambiguo; indique el id o el nombre completo.`,
}

const PLACE = {
  not_found: (what: string) => `No se encontró la ${what}.`,
  ambiguous: (what: string) => `La ${what} es ambigua; indique el id o el nombre completo.`,
}

/** What an edit cannot change, by why it cannot (docs/design.md §24). */
const FIXED: Record<FixedField, string> = {
  externalId:
    'El ExternalId se fija al crear y es el de la ruta: archive la publicación y cree otra con el nuevo.',
  brand: 'El vehículo se fija al crear: archive la publicación y cree otra.',
  model: 'El vehículo se fija al crear: archive la publicación y cree otra.',
  version: 'El vehículo se fija al crear: archive la publicación y cree otra.',
  transmission: 'El vehículo se fija al crear: archive la publicación y cree otra.',
  propulsion: 'El vehículo se fija al crear: archive la publicación y cree otra.',
}

/** One issue as its wire field and message. */
function wire(issue: ListingIssue): [string, string] {
  if (issue.issue === 'fixed') return [WIRE[issue.field], FIXED[issue.field]]
  switch (issue.field) {
    case 'brand':
      return ['Marca', MATCH[issue.issue](`la marca «${issue.value}»`)]
    case 'model':
      return ['Modelo', MATCH[issue.issue](`el modelo «${issue.value}»`)]
    case 'version':
      return ['Version', MATCH.ambiguous(`La versión «${issue.value}»`)]
    case 'year':
      return [
        'VersionYear',
        'El campo VersionYear es obligatorio cuando la versión no indica su año.',
      ]
    case 'transmission':
      return [
        'Transmision',
        'El campo Transmision es obligatorio cuando la versión no es del catálogo.',
      ]
    case 'propulsion':
      return [
        'Propulsion',
        'El campo Propulsion es obligatorio cuando la versión no es del catálogo.',
      ]
    case 'operator':
      return ['OperadorResponsable', 'La agencia no tiene un operador responsable.']
    case 'phone':
      return [
        'Telefono',
        'El Telefono debe coincidir con uno de los teléfonos del operador responsable.',
      ]
    case 'mileage':
      return [
        'Kilometraje',
        issue.issue === 'zero_when_used'
          ? `Kilometraje 0 corresponde a un vehículo nuevo (0 km); un vehículo del año ${issue.year} debe indicar su kilometraje.`
          : `El Kilometraje ${issue.mileage} es sospechoso para un vehículo del año ${issue.year}: supera ${MAX_KM_PER_YEAR} km por año de antigüedad (máximo ${issue.ceiling}).`,
      ]
    case 'photos':
      return [
        'Fotos',
        'Las fotos son obligatorias para vehículos usados (Kilometraje mayor que 0).',
      ]
    case 'warrantyCertificate':
      return [
        'AplicaCertificadoGarantiaUsado',
        'El certificado de garantía de usado solo se aplica a vehículos usados.',
      ]
    case 'region':
      return ['Locacion.Region', PLACE[issue.issue](`región «${issue.value}»`)]
    case 'city':
      return ['Locacion.Ciudad', PLACE[issue.issue](`ciudad «${issue.value}»`)]
    case 'operatorFilter':
      return ['operador', 'El operador no es colaborador de la agencia.']
    default:
      return unmapped(issue)
  }
}

function errorsOf(issues: ListingIssue[] = []): ProblemErrors {
  const errors: ProblemErrors = {}
  for (const issue of issues) {
    const [field, message] = wire(issue)
    ;(errors[field] ??= []).push(message)
  }
  return errors
}

const conflict = (message: string) => Problem.conflict({ _: [message] })

export function problemFor(failure: ListingFailure, mode: 'read' | 'write'): Problem {
  switch (failure.reason) {
    case 'not_found':
      return mode === 'read' ? Problem.notFound(NOT_FOR_APP) : Problem.forbidden(NOT_FOR_APP)
    case 'precondition':
      return preconditionFailed(failure.details?.etag)
    case 'invalid':
      return Problem.badRequest(errorsOf(failure.details))
    case 'archived':
      return conflict('La publicación está archivada y no admite cambios.')
    case 'no_quota':
      return conflict('El plan de la agencia no tiene cupo de exposición disponible.')
    case 'agency_suspended':
      return conflict('La agencia está suspendida; no se pueden activar publicaciones.')
    case 'operator_suspended':
      return conflict('El operador responsable está suspendido.')
    case 'plan_full':
      return conflict(
        `El plan de la agencia admite ${failure.details?.capacity} publicaciones activas y no tiene lugar para otra.`
      )
    case 'duplicate_external_id':
      return Problem.conflict({
        ExternalId: ['Ya existe una publicación con ese ExternalId en la agencia.'],
      })
    case 'changed_concurrently':
      return conflict('La publicación cambió mientras se la editaba; reintente.')
    default:
      return unmapped(failure)
  }
}

function unmapped(value: never): never {
  throw new Error(`Unmapped listings failure: ${JSON.stringify(value)}`)
}

/** A sync row's `Errors`: those of the single request's problem (docs/design.md §15). */
function rowErrors(failure: ListingFailure): ProblemErrors {
  const problem = problemFor(failure, 'write')
  return problem.options.errors ?? { _: [problem.options.detail ?? problem.message] }
}

/**
 * A rejected row's `Errors`, worded as it is read: those the single request
 * would have answered, at most 50 keys, then how many more (docs/design.md §25).
 */
export function rowRejectionErrors(rejection: RowRejection): ProblemErrors {
  return capErrors(rejectionErrors(rejection))
}

function rejectionErrors(rejection: RowRejection): ProblemErrors {
  switch (rejection.reason) {
    case 'invalid_body':
      return errorsFromVine(rejection.details!)
    case 'unknown_members':
      return unknownMemberErrors(rejection.details!)
    case 'no_listing':
      return {
        ExternalId: ['La aplicación no tiene una publicación con ese ExternalId en la agencia.'],
      }
    case 'repeated_external_id':
    case 'archive_also_sent':
    case 'row_too_large':
      return syncRefusalErrors(rejection.reason)
    case 'unexpected':
      return {
        _: [
          'La fila no se pudo procesar por un error del servicio; envíela de nuevo en otra sincronización.',
        ],
      }
    default:
      return rowErrors(rejection)
  }
}

/** Rows refused on arrival. */
function syncRefusalErrors(reason: RowRefusal): ProblemErrors {
  switch (reason) {
    case 'repeated_external_id':
      return { ExternalId: ['Otra fila de la sincronización tiene el mismo ExternalId.'] }
    case 'archive_also_sent':
      return { ExternalId: ['La baja nombra una publicación que la sincronización también envía.'] }
    case 'row_too_large':
      return {
        _: [
          `La fila ocupa más de ${MAX_ROW_BYTES / 1024} KiB; ninguna publicación válida llega a tanto.`,
        ],
      }
    default:
      return unmapped(reason)
  }
}

const GUARD = `más del ${ARCHIVE_SHARE * 100} % y más de ${ARCHIVE_FLOOR}`

/** The archive guard's problem: on arrival (409) and, worded as a failure, when the sync starts. */
function tooManyArchives(archives: number, live: number, when: 'arrival' | 'start') {
  const archive =
    when === 'arrival'
      ? `La sincronización Completa archivaría ${archives} de las ${live} publicaciones vigentes de la aplicación en la agencia (${GUARD})`
      : `Al comenzar, la sincronización Completa archivaría ${archives} de las ${live} publicaciones vigentes de la aplicación en la agencia (${GUARD}), contando las creadas desde que se recibió; no se escribió nada`
  return new Problem(409, {
    detail: `${archive}: reenvíela con ConfirmarBajas: true si es lo que quiere.`,
    errors: { ConfirmarBajas: ['Confirme las bajas o envíe el inventario completo.'] },
    extensions: { Bajas: archives },
  })
}

export function syncProblemFor(refusal: SyncRefusal): Problem {
  switch (refusal.reason) {
    case 'too_many_archives': {
      const { archives, live } = refusal.details!
      return tooManyArchives(archives, live, 'arrival')
    }
    default:
      return unmapped(refusal.reason)
  }
}

/** Why a sync ended `Fallida`, as the problem its Sincronizacion shows (`Problema`). */
export function syncFailureProblem(failure: SyncFailure): Problem {
  switch (failure.reason) {
    case 'too_many_archives':
      return tooManyArchives(failure.archives, failure.live, 'start')
    case 'app_unavailable':
      return new Problem(403, {
        detail:
          failure.standing === 'disabled'
            ? 'La aplicación fue deshabilitada: la sincronización se detuvo; las filas sin resultado no se escribieron.'
            : 'La aplicación no tiene credenciales vigentes: la sincronización se detuvo; las filas sin resultado no se escribieron.',
      })
    case 'kept_failing':
      return new Problem(500, {
        detail: `La sincronización falló ${failure.starts} veces seguidas en el mismo punto y se abandonó; las filas sin resultado no se escribieron. Envíelas en otra sincronización.`,
      })
    default:
      return unmapped(failure)
  }
}
