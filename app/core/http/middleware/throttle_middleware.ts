/*
 * Per-app rate limit on the API (429 + Retry-After through the problem
 * handler). The limit is RATE_LIMIT_PER_MINUTE requests per app.
 */
import limiter from '@adonisjs/limiter/services/main'
import { settings } from '#core/settings'

export const throttle = limiter.define('api', (ctx) =>
  limiter
    .allowRequests(settings.rateLimitPerMinute)
    .every('1 minute')
    .usingKey(`app_${ctx.caller?.id ?? ctx.request.ip()}`)
)
