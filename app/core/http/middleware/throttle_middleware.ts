/*
 * Per-app rate limit on the API (429 + Retry-After through the problem
 * handler). The limit is RATE_LIMIT_PER_MINUTE requests per app.
 *
 * One `consume` per request. Adonis' `limiter.define` asks the store twice
 * (a `get`, then `consume`) and builds its limiter on every request —
 * with the database store, two statements per API request. A caller past its
 * limit is refused by `consume` itself; its window does not grow by it.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { settings } from '#core/settings'
import { perMinuteLimiter } from '../per_minute_limiter.js'

const limit = perMinuteLimiter(() => settings.rateLimitPerMinute)

export async function throttle(ctx: HttpContext, next: NextFn) {
  const consumed = await limit().consume(`api_app_${ctx.caller?.id ?? ctx.request.ip()}`)
  const response = await next()
  ctx.response.header('X-RateLimit-Limit', consumed.limit)
  ctx.response.header('X-RateLimit-Remaining', consumed.remaining)
  return response
}
