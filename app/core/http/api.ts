/*
 * The authenticated, rate-limited `/v3` route group every module registers
 * its API routes in.
 */
import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { throttle } from './middleware/throttle_middleware.js'

/** Registers routes under `/v3` behind bearer auth, the per-app rate limit and Idempotency-Key. */
export function apiRoutes(define: () => void) {
  return router
    .group(define)
    .prefix('/v3')
    .use([middleware.authenticate(), throttle, middleware.idempotent()])
}
