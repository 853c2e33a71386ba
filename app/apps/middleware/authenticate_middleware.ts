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
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors } from '@adonisjs/auth'
import { settings } from '#core/settings'
import { Problem } from '#core/http/problem'
import { bearerToken } from '#core/http/bearer'
import { perMinuteLimiter } from '#core/http/per_minute_limiter'
import { appOfBearer } from '#apps/services/app_bearer'

const failures = perMinuteLimiter(() => settings.authFailuresPerMinute)

/** Address → until when (ms) this process checks it against the limiter. */
const suspects = new Map<string, number>()
const SUSPECT_MS = 60_000

function suspect(address: string, now = Date.now()) {
  if (suspects.size >= 10_000)
    for (const [key, until] of suspects) if (until <= now) suspects.delete(key)
  suspects.set(address, now + SUSPECT_MS)
}

function tooMany(availableIn: number) {
  return new Problem(429, {
    detail: 'Demasiadas autenticaciones fallidas desde esta dirección; reintente más tarde.',
    headers: { 'Retry-After': String(Math.max(1, availableIn)) },
  })
}

export default class AuthenticateMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const address = ctx.request.ip()
    const key = `auth_failures_${address}`
    if ((suspects.get(address) ?? 0) > Date.now()) {
      const spent = await failures().get(key)
      if (spent && spent.remaining <= 0) throw tooMany(spent.availableIn)
    }
    const token = bearerToken(ctx.request.header('authorization'))
    const app = token ? await appOfBearer(token) : null
    if (!app) {
      suspect(address)
      const counted = await failures().increment(key)
      if (counted.consumed > counted.limit) throw tooMany(counted.availableIn)
      throw new errors.E_UNAUTHORIZED_ACCESS('Unauthorized access', {
        guardDriverName: 'access_tokens',
      })
    }
    ctx.caller = app
    return next()
  }
}
