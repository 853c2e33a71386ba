/*
 * Failures of the apps services → problem documents: the one place where
 * their reasons get a status and Spanish messages (docs/spec.md §7).
 * Exhaustive: a new reason does not compile until it is mapped here.
 */
import { Problem } from '#core/http/problem'
import type { SaveFailure } from '#apps/services/save_app_webhook'

export type AppsFailure = SaveFailure

export function problemFor(reason: AppsFailure): Problem {
  switch (reason) {
    case 'subscription_exists':
      return Problem.conflict({
        _: ['La suscripción a este tópico ya existe; use PUT para reemplazarla.'],
      })
    default:
      return unmapped(reason)
  }
}

function unmapped(reason: never): never {
  throw new Error(`Unmapped apps failure: ${String(reason)}`)
}
