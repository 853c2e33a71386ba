/*
 * Problem documents (docs/spec.md §7, docs/design.md §4): the one way every error leaves
 * the service. Controllers throw `Problem`; the exception handler renders it.
 */
import { STATUS_CODES } from 'node:http'
import type { HttpContext } from '@adonisjs/core/http'
import { capErrors } from './error_map.js'

export type ProblemErrors = Record<string, string[]>

export type ProblemOptions = {
  detail?: string
  title?: string
  errors?: ProblemErrors
  headers?: Record<string, string>
  extensions?: Record<string, unknown>
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8'

const TITLES: Record<number, string> = {
  400: 'La solicitud no es válida',
  401: 'Credenciales ausentes o inválidas',
  403: 'Operación no permitida',
  404: 'Recurso no encontrado',
  405: 'Método no permitido',
  406: 'Representación no disponible',
  408: 'La solicitud no llegó completa a tiempo',
  409: 'Conflicto con el estado del recurso',
  410: 'El recurso ya no está disponible',
  412: 'La precondición no se cumple',
  413: 'El cuerpo de la solicitud es demasiado grande',
  415: 'Tipo de contenido no soportado',
  429: 'Demasiadas solicitudes',
  500: 'Error interno del servidor',
  503: 'Servicio no disponible',
}

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly options: ProblemOptions = {}
  ) {
    super(options.detail ?? STATUS_CODES[status] ?? 'Error')
  }

  static badRequest(errors: ProblemErrors, detail = 'Uno o más campos no son válidos.') {
    return new Problem(400, { errors, detail })
  }

  static notFound(detail = 'El recurso no existe.') {
    return new Problem(404, { detail })
  }

  static forbidden(detail = 'La operación no está permitida para esta aplicación.') {
    return new Problem(403, { detail })
  }

  static conflict(
    errors: ProblemErrors,
    detail = 'La operación no es posible en el estado actual.'
  ) {
    return new Problem(409, { errors, detail })
  }

  static preconditionFailed(detail = 'El ETag enviado no coincide con la versión actual.') {
    return new Problem(412, { detail })
  }
}

/** Renders a problem document on the response. */
export function sendProblem(ctx: HttpContext, problem: Problem) {
  const { status, options } = problem
  const body: Record<string, unknown> = {
    Type: `https://httpstatuses.io/${status}`,
    Title: options.title ?? TITLES[status] ?? STATUS_CODES[status] ?? 'Error',
    Status: status,
    Detail: options.detail ?? problem.message,
    Instance: ctx.request.url(),
    Extensions: { TraceId: ctx.request.id(), ...options.extensions },
  }
  // At most 50 keys, then how many more, whoever built them (docs/design.md §25).
  if (options.errors) body.Errors = capErrors(options.errors)
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    ctx.response.header(name, value)
  }
  ctx.response.status(status)
  ctx.response.header('Content-Type', PROBLEM_CONTENT_TYPE)
  ctx.response.send(JSON.stringify(body))
}
