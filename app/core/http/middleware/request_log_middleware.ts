/*
 * One structured log line per request (its path without credentials), and the request id on every response
 * (`X-Request-Id`; problem documents repeat it as `Extensions.TraceId`).
 * `Vary: Accept` on every response too (errors included): a handler that sets
 * its own Vary keeps Accept in it.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { observeRequest } from '#core/metrics/http_metrics'
import { redactedPath } from '#core/http/log_redaction'

export default class RequestLogMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const started = process.hrtime.bigint()
    const requestId = ctx.request.id()!
    ctx.response.header('X-Request-Id', requestId)
    ctx.response.header('Vary', 'Accept')
    ctx.response.response.once('finish', () => {
      const duration = Number(process.hrtime.bigint() - started) / 1e6
      const status = ctx.response.response.statusCode
      observeRequest(ctx.route?.pattern, ctx.request.method(), status, duration / 1000)
      ctx.logger.info({
        appId: (ctx as any).caller?.id ?? null,
        method: ctx.request.method(),
        // A credential in the path (a registration link's token) never reaches the log.
        path: redactedPath(ctx.request.url()),
        status,
        durationMs: Math.round(duration * 100) / 100,
      })
    })
    try {
      return await next()
    } finally {
      keepVaryAccept(ctx)
    }
  }
}

function keepVaryAccept(ctx: HttpContext) {
  const vary = String(ctx.response.getHeader('Vary') ?? '')
  if (!/(^|,)\s*accept\s*(,|$)/i.test(vary))
    ctx.response.header('Vary', vary ? `${vary}, Accept` : 'Accept')
}
