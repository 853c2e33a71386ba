/*
 * The buyers' pages answer errors with HTML pages, not the API's problem
 * documents. Errors thrown further down (Shield's CSRF check: 403, the form's
 * rate limit: 429, anything unexpected: 500) are turned into problem
 * documents by the framework's error handler before control returns here,
 * so this middleware re-renders such a response as the matching HTML page,
 * keeping its status and headers (Retry-After, X-RateLimit-*).
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { PROBLEM_CONTENT_TYPE } from '#core/http/problem'
import { renderError } from '#buyers/http/html'

export default class HtmlPagesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    try {
      await next()
    } catch (error) {
      ctx.logger.error({ err: error }, 'buyers page failed')
      ctx.response.status(500)
      ctx.response.header('Content-Type', PROBLEM_CONTENT_TYPE)
    }
    const type = String(ctx.response.getHeader('Content-Type') ?? '')
    if (type.startsWith('application/problem+json')) {
      const status = ctx.response.getStatus()
      // 503 (database away) keeps its status and Retry-After; any other 5xx is the 500 page.
      return renderError(ctx, status >= 500 && status !== 503 ? 500 : status)
    }
  }
}
