/*
 * The authenticated, rate-limited `/v3` route group every module registers
 * its API routes in.
 */
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { throttle } from './middleware/throttle_middleware.js'

/**
 * Registers routes under `/v3` behind bearer auth, the per-app rate limit and
 * Idempotency-Key. `idempotent: false` leaves the key out for answers that must
 * never be stored (a new token's secret); their operations say `idempotent: false`.
 */
export function apiRoutes(define: () => void, options: { idempotent?: false } = {}) {
  return router
    .group(define)
    .prefix('/v3')
    .use(
      options.idempotent === false
        ? [middleware.authenticate(), throttle]
        : [middleware.authenticate(), throttle, middleware.idempotent()]
    )
}
