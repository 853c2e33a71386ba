/*
 * Bearer authentication of the calling app. After it, `ctx.caller` (typed in
 * #core/auth/caller) is the app every module scopes its queries to, and
 * `ctx.credential` says which token proved it (POST /v3/credenciales rotates it).
 *
 * The header is exactly `Bearer <token68>` (scheme case-insensitive, RFC 7235
 * §2.1 / RFC 6750 §2.1); anything else is a 401. A token that is presented
 * but not accepted — unknown, wrong, revoked, expired, its app disabled —
 * answers `error="invalid_token"` (RFC 6750 §3.1). Every 401 counts against
 * the client address: past AUTH_FAILURES_PER_MINUTE the address gets 429 +
 * Retry-After without its credentials being looked up (docs/design.md §13);
 * every counted 401 carries the `autenticacion` policy's RateLimit headers.
 * Successful requests are never counted, and only an address that failed in
 * this process within the last minute pays the limiter lookup (with the
 * database store, one query): another process learns of an address at its
 * first failure there, whose increment already says whether it is spent.
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors } from '@adonisjs/auth'
import { Problem } from '#core/http/problem'
import { rateLimitHeaders, tooManyHeaders, type LimitState } from '#core/http/per_minute_limiter'
import { bearerToken } from '#core/http/bearer'
import AuthenticateApp from '#apps/services/authenticate_app'
import { CredentialMemory, type Credential } from '#apps/services/credential_memory'
import { invalidToken } from '#apps/http/problems'

declare module '@adonisjs/core/http' {
  interface HttpContext {
    /** The token that authenticated the request (set with `caller`). */
    credential: Credential
  }
}

/** The policy every 401 counts against (RateLimit-Policy, docs/api.md). */
export const AUTH_FAILURES_POLICY = 'autenticacion'

function tooMany(state: LimitState) {
  return new Problem(429, {
    detail: 'Demasiadas autenticaciones fallidas desde esta dirección; reintente más tarde.',
    headers: tooManyHeaders(AUTH_FAILURES_POLICY, state),
  })
}

@inject()
export default class AuthenticateMiddleware {
  constructor(
    private authenticate: AuthenticateApp,
    private memory: CredentialMemory
  ) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const address = ctx.request.ip()
    const key = `auth_failures_${address}`
    if (this.memory.isSuspect(address)) {
      const spent = await this.memory.failures().get(key)
      if (spent && spent.remaining <= 0) throw tooMany(spent)
    }
    const token = bearerToken(ctx.request.header('authorization'))
    const credential = token ? await this.authenticate.execute(token) : null
    if (!credential) {
      this.memory.suspect(address)
      const counted = await this.memory.failures().increment(key)
      if (counted.consumed > counted.limit) throw tooMany(counted)
      // A counted 401 says how many failures this address has left.
      for (const [name, value] of Object.entries(rateLimitHeaders(AUTH_FAILURES_POLICY, counted)))
        ctx.response.header(name, value)
      if (token) throw invalidToken()
      throw new errors.E_UNAUTHORIZED_ACCESS('Unauthorized access', {
        guardDriverName: 'access_tokens',
      })
    }
    ctx.caller = credential.caller
    ctx.credential = credential
    return next()
  }
}
