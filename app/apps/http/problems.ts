/*
 * Failures of the apps services → problem documents: the one place where
 * their reasons get a status and Spanish messages (docs/spec.md §7).
 * Exhaustive: a new reason does not compile until it is mapped here.
 */
import { Problem } from '#core/http/problem'
import type { SaveFailure } from '#apps/services/save_app_webhook'
import type { RotateFailure } from '#apps/services/rotate_token'
import { MAX_LIVE_TOKENS } from '#apps/services/issue_token'

/** The calling app is gone (deleted between its authentication and the read). */
export type ReadFailure = 'app_not_found'

export type AppsFailure = SaveFailure | RotateFailure | ReadFailure

/** A bearer token presented and refused: unknown, wrong, expired, revoked, or its app disabled (RFC 6750 §3.1). */
export function invalidToken(
  detail = 'El token no es válido: no existe, venció, fue revocado o la aplicación está deshabilitada.'
) {
  return new Problem(401, {
    detail,
    headers: { 'WWW-Authenticate': 'Bearer realm="v3", error="invalid_token"' },
  })
}

export function problemFor(reason: AppsFailure): Problem {
  switch (reason) {
    case 'subscription_exists':
      return Problem.conflict({
        _: ['La suscripción a este tópico ya existe; use PUT para reemplazarla.'],
      })
    case 'credential_invalid':
      // Revoked, expired or disabled since this process last verified it (credential memory).
      return invalidToken('El token usado ya no es válido: no puede emitir otro.')
    case 'token_limit':
      return Problem.conflict(
        {
          _: [
            `La aplicación ya tiene ${MAX_LIVE_TOKENS} tokens vigentes: rote con AnteriorExpiraEnSegundos 0 o ` +
              'espere a que venza alguno.',
          ],
        },
        `La aplicación ya tiene ${MAX_LIVE_TOKENS} tokens vigentes, el máximo.`
      )
    case 'app_not_found':
      return invalidToken()
    default:
      return unmapped(reason)
  }
}

function unmapped(reason: never): never {
  throw new Error(`Unmapped apps failure: ${String(reason)}`)
}
