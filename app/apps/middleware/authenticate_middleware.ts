/*
 * Bearer authentication of the calling app. After it, `ctx.caller` (typed in
 * #core/auth/caller) is the app every module scopes its queries to.
 *
 * The header is exactly `Bearer <token68>` (scheme case-insensitive, RFC 7235
 * §2.1 / RFC 6750 §2.1); anything else is a 401. Every 401 counts against the
 * client address: past AUTH_FAILURES_PER_MINUTE the address gets 429 +
 * Retry-After without its credentials being looked up (docs/design.md §13).
 * Successful requests are never counted, and only an address that failed in
 * this process within the last minute pays the limiter lookup (with the
 * database store, one query): another process learns of an address at its
 * first failure there, whose increment already says whether it is spent.
 */
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import limiter from '@adonisjs/limiter/services/main'
import { errors } from '@adonisjs/auth'
import type { AuthService } from '@adonisjs/auth/types'
import { settings } from '#core/settings'
import { Problem } from '#core/http/problem'
import { bearerToken } from '#core/http/bearer'

const failures = () =>
  limiter.use({ requests: settings.authFailuresPerMinute, duration: '1 minute' })

/** Address → until when (ms) this process checks it against the limiter. */
const suspects = new Map<string, number>()
const SUSPECT_MS = 60_000

function suspect(address: string, now = Date.now()) {
  if (suspects.size >= 10_000)
    for (const [key, until] of suspects) if (until <= now) suspects.delete(key)
  suspects.set(address, now + SUSPECT_MS)
}

/**
 * The auth manager, resolved once. Only authenticated routes build an
 * authenticator (Adonis' initialize_auth_middleware built one on every
 * request, and with it an Edge renderer to share it with templates).
 */
let authManager: AuthService | undefined

function tooMany(availableIn: number) {
  return new Problem(429, {
    detail: 'Demasiadas autenticaciones fallidas desde esta dirección; reintente más tarde.',
    headers: { 'Retry-After': String(Math.max(1, availableIn)) },
  })
}

export default class AuthenticateMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const address = ctx.request.ip()
    const limit = failures()
    const key = `auth_failures_${address}`
    if ((suspects.get(address) ?? 0) > Date.now()) {
      const spent = await limit.get(key)
      if (spent && spent.remaining <= 0) throw tooMany(spent.availableIn)
    }
    try {
      const token = bearerToken(ctx.request.header('authorization'))
      if (!token)
        throw new errors.E_UNAUTHORIZED_ACCESS('Unauthorized access', {
          guardDriverName: 'access_tokens',
        })
      // The guard splits on one space: hand it the canonical form of the header just checked.
      ctx.request.request.headers.authorization = `Bearer ${token}`
      authManager ??= await app.container.make('auth.manager')
      ctx.caller = await authManager.createAuthenticator(ctx).authenticateUsing(['api'])
    } catch (error) {
      if (!(error instanceof errors.E_UNAUTHORIZED_ACCESS)) throw error
      suspect(address)
      const counted = await limit.increment(key)
      throw counted.consumed > counted.limit ? tooMany(counted.availableIn) : error
    }
    return next()
  }
}
