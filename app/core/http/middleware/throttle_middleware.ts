/*
 * Per-app rate limit on the API (429 + Retry-After through the problem
 * handler). The limit is RATE_LIMIT_PER_MINUTE requests per app.
 *
 * One `consume` per request. Adonis' `limiter.define` asks the store twice
 * (a `get`, then `consume`) and builds its limiter on every request —
 * with the database store, two statements per API request. A caller past its
 * limit is refused by `consume` itself; its window does not grow by it.
 *
 * The headers are set before the handler runs, so every counted answer —
 * an error the handler throws included — says what is left (policy `aplicacion`).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { errors } from '@adonisjs/limiter'
import { settings } from '#core/settings'
import { Problem } from '../problem.js'
import { perMinuteLimiter, rateLimitHeaders, tooManyHeaders } from '../per_minute_limiter.js'

export const APP_POLICY = 'aplicacion'

const limit = perMinuteLimiter(() => settings.rateLimitPerMinute)

export async function throttle(ctx: HttpContext, next: NextFn) {
  let consumed
  try {
    consumed = await limit().consume(`api_app_${ctx.caller?.id ?? ctx.request.ip()}`)
  } catch (error) {
    if (!(error instanceof errors.E_TOO_MANY_REQUESTS)) throw error
    throw new Problem(429, {
      detail: 'Se superó el límite de solicitudes de la aplicación; reintente más tarde.',
      headers: tooManyHeaders(APP_POLICY, error.response),
    })
  }
  for (const [name, value] of Object.entries(rateLimitHeaders(APP_POLICY, consumed)))
    ctx.response.header(name, value)
  return next()
}
