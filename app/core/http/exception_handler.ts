/*
 * Maps every error to a problem document (docs/design.md §4): validation errors to
 * 400 with wire-named `Errors`, framework errors to their status, anything
 * unexpected to a 500 without details. No stack trace ever leaves.
 */
import app from '@adonisjs/core/services/app'
import router from '@adonisjs/core/services/router'
import { ExceptionHandler, type HttpContext } from '@adonisjs/core/http'
import { isDatabaseUnavailable, uniqueViolation } from '#core/database/errors'
import { Problem, sendProblem, type ProblemErrors } from './problem.js'
import { errorPageFor } from './error_pages.js'
import { addError, errorMap } from './error_map.js'

type VineMessage = { field: string; message: string; index?: number }

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** Vine field paths to wire keys: `Fotos.2`, `Interesado.Email`, `_` for the entry. */
export function errorsFromVine(messages: VineMessage[]): ProblemErrors {
  const errors = errorMap()
  for (const { field, message } of messages)
    addError(errors, field && field !== '' ? field : '_', message)
  return errors
}

/**
 * Database errors are never a 500 (docs/design.md §13): an unreachable database is
 * a 503 the client retries; a unique violation no service replayed is a race
 * lost against a concurrent request, a 409.
 */
export function databaseProblem(error: unknown): Problem | null {
  if (isDatabaseUnavailable(error)) {
    return new Problem(503, {
      detail: 'La base de datos no está disponible en este momento; reintente en unos segundos.',
      headers: { 'Retry-After': '5' },
    })
  }
  if (uniqueViolation(error) !== null) {
    return Problem.conflict({
      _: ['Otra solicitud modificó el mismo recurso al mismo tiempo; reintente.'],
    })
  }
  return null
}

export default class HttpExceptionHandler extends ExceptionHandler {
  protected debug = false

  async handle(error: any, ctx: HttpContext) {
    const problem = this.toProblem(error, ctx)
    if (problem.status >= 500) ctx.logger.error({ err: error }, 'unhandled error')
    if (await this.renderPage(ctx, problem)) return
    sendProblem(ctx, problem)
  }

  /** Errors on a module's HTML routes answer that module's page (same status and headers). */
  private async renderPage(ctx: HttpContext, problem: Problem): Promise<boolean> {
    const render = errorPageFor(ctx.request.url())
    if (!render) return false
    for (const [name, value] of Object.entries(problem.options.headers ?? {}))
      ctx.response.header(name, value)
    await render(ctx, problem.status)
    return true
  }

  async report(error: any, ctx: HttpContext) {
    // 5xx are logged once in handle(); expected client errors are not noise.
    if (!(error?.status >= 500)) return
    return super.report(error, ctx)
  }

  private toProblem(error: any, ctx: HttpContext): Problem {
    if (error instanceof Problem) return error
    const database = databaseProblem(error)
    if (database) return database
    switch (error?.code) {
      case 'E_VALIDATION_ERROR':
        return Problem.badRequest(errorsFromVine(error.messages ?? []))
      case 'E_ROUTE_NOT_FOUND':
        return this.routeNotFound(ctx)
      case 'E_UNAUTHORIZED_ACCESS':
        return new Problem(401, {
          detail: 'Envíe un token válido en el encabezado Authorization: Bearer <token>.',
          headers: { 'WWW-Authenticate': 'Bearer realm="v3"' },
        })
      case 'E_TOO_MANY_REQUESTS': {
        const headers = error.getDefaultHeaders?.() ?? {}
        return new Problem(429, {
          detail: 'Se superó el límite de solicitudes; reintente más tarde.',
          headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])),
        })
      }
      case 'E_REQUEST_ENTITY_TOO_LARGE':
        return new Problem(413, { detail: 'El cuerpo de la solicitud supera 1 MiB.' })
      case 'E_ROW_NOT_FOUND':
        return Problem.notFound()
    }
    if (error?.type === 'entity.parse.failed' || error instanceof SyntaxError) {
      return Problem.badRequest(
        { _: ['El cuerpo no es JSON válido.'] },
        'El cuerpo no es JSON válido.'
      )
    }
    const status = Number(error?.status)
    if (status >= 400 && status < 500) return new Problem(status, { detail: error.message })
    if (!app.inProduction && app.inTest === false) ctx.logger.debug({ err: error }, 'error')
    return new Problem(500, { detail: 'Ocurrió un error inesperado. Informe el TraceId.' })
  }

  /** 405 with `Allow` when the path exists under another method, else 404. */
  private routeNotFound(ctx: HttpContext): Problem {
    const url = ctx.request.url()
    const allowed = METHODS.filter((method) => router.match(url, method, false))
    if (allowed.length > 0) {
      return new Problem(405, {
        detail: `Métodos admitidos: ${allowed.join(', ')}.`,
        headers: { Allow: allowed.join(', ') },
      })
    }
    return Problem.notFound(`No existe el recurso ${url}.`)
  }
}
