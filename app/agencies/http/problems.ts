/*
 * Failures of the agencies services → problem documents: the one place where
 * their reasons get a status, wire field names and Spanish messages
 * (docs/spec.md §4, §7). Exhaustive: a new reason does not compile until it is
 * mapped here.
 */
import { Problem, type ProblemErrors } from '#core/http/problem'
import type { Fail } from '#core/result'
import type { PlaceFailure, PlaceIssue, UnknownPlace } from '#agencies/services/resolve_place'
import type { BranchFailure, Schedule } from '#agencies/services/save_branch'
import type { EditFailure } from '#agencies/services/edit_operator'
import type { DetachFailure, DetachIssues } from '#agencies/services/detach_operator'
import type { CollaboratorFailure } from '#agencies/services/add_collaborator'

export type AgenciesFailure =
  | PlaceFailure
  | BranchFailure
  | EditFailure
  | Fail<'email_known'>
  | Fail<CollaboratorFailure>
  | DetachFailure

const PLACE_MESSAGES: Record<'Region' | 'Ciudad', Record<PlaceIssue, string>> = {
  Region: {
    not_found: 'La región no existe.',
    ambiguous: 'La región es ambigua: envíe su id o su código ISO.',
  },
  Ciudad: {
    not_found: 'La ciudad no existe en la región indicada.',
    ambiguous: 'La ciudad es ambigua: envíe su id o su nombre completo.',
  },
}

/** The wire name of each opening-hours block (SucursalEdit). */
const SCHEDULE_FIELD: Record<Schedule, string> = {
  weekdays: 'Laborable',
  preHolidays: 'PreFestivo',
  holidays: 'Festivo',
}

/** desasociar's query parameters: the leaving person and the receiving one. */
const DETACH_MESSAGES: {
  operador: Record<NonNullable<DetachIssues['leaving']>, string>
  operadorDestino: Record<NonNullable<DetachIssues['receiving']>, string>
} = {
  operador: {
    not_member: 'El operador no es colaborador de la agencia.',
    administrator: 'El administrador de la agencia no puede desasociarse.',
  },
  operadorDestino: {
    not_member: 'El operador de destino no es colaborador de la agencia.',
    suspended: 'El operador de destino está suspendido.',
    same_person: 'El operador de destino debe ser otro colaborador.',
    handover_refused: 'El operador de destino no es válido.',
  },
}

function detachErrors(issues: DetachIssues = {}): ProblemErrors {
  const errors: ProblemErrors = {}
  if (issues.leaving) errors.operador = [DETACH_MESSAGES.operador[issues.leaving]]
  if (issues.receiving) errors.operadorDestino = [DETACH_MESSAGES.operadorDestino[issues.receiving]]
  return errors
}

function placeErrors(place: UnknownPlace = {}): ProblemErrors {
  const errors: ProblemErrors = {}
  if (place.region) errors.Region = [PLACE_MESSAGES.Region[place.region]]
  if (place.city) errors.Ciudad = [PLACE_MESSAGES.Ciudad[place.city]]
  return errors
}

export function problemFor(failure: AgenciesFailure): Problem {
  switch (failure.reason) {
    case 'unknown_place':
      return Problem.badRequest(placeErrors(failure.details))
    case 'invalid_branch': {
      const errors: ProblemErrors = {}
      for (const schedule of failure.details?.closesBeforeOpening ?? []) {
        errors[`${SCHEDULE_FIELD[schedule]}.Hasta`] = [
          'La hora de cierre debe ser posterior a la de apertura.',
        ]
      }
      return Problem.badRequest({ ...errors, ...placeErrors(failure.details?.place) })
    }
    case 'branch_not_found':
      return Problem.notFound('La sucursal no existe.')
    case 'not_member':
      return Problem.notFound('El operador no es colaborador de la agencia.')
    case 'admin_not_editable':
      return Problem.forbidden(
        'El administrador no fue creado por la API: gestiona sus datos en su propia cuenta.'
      )
    case 'email_known':
      return Problem.conflict(
        {
          AdminMail: [
            'La dirección ya está registrada: el administrador debe contactar al soporte del servicio.',
          ],
        },
        'La dirección de correo ya está registrada en el servicio.'
      )
    case 'already_member':
      return Problem.conflict({ Email: ['El operador ya es colaborador de la agencia.'] })
    case 'member_elsewhere':
      return Problem.conflict({
        Email: ['El operador ya colabora con otra agencia; debe desasociarse de ella primero.'],
      })
    case 'cannot_detach':
      return Problem.badRequest(detachErrors(failure.details))
    default:
      return unmapped(failure)
  }
}

function unmapped(failure: never): never {
  throw new Error(`Unmapped agencies failure: ${(failure as Fail<string>).reason}`)
}
