/*
 * The buyers' pages answer errors with HTML pages, not the API's problem
 * documents: a bad CSRF token (403), the form's rate limit (429) and
 * unexpected failures (500). Runs first on the HTML routes.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { renderError } from '#buyers/http/html'

export default class HtmlPagesMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    try {
      return await next()
    } catch (error: any) {
      switch (error?.code) {
        case 'E_BAD_CSRF_TOKEN':
          return renderError(ctx, 403)
        case 'E_TOO_MANY_REQUESTS':
          for (const [name, value] of Object.entries(error.getDefaultHeaders?.() ?? {})) {
            ctx.response.header(name, String(value))
          }
          return renderError(ctx, 429)
      }
      ctx.logger.error({ err: error }, 'buyers page failed')
      return renderError(ctx, 500)
    }
  }
}
