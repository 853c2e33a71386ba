/*
 * The input gate on every route (docs/design.md §13), wrapped around the body
 * parser so that what it refuses (a scalar JSON body, a Content-Encoding that
 * does not decode or is unknown, JSON that does not parse) becomes a Spanish
 * problem document too. Runs before authentication and every handler, so no
 * query ever sees hostile input.
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import { Problem, type ProblemErrors } from '../problem.js'
import {
  GATE_DETAIL,
  checkPathParams,
  checkPercentEncoding,
  checkValues,
  pathParamsClean,
} from '../input_gate.js'

/** What `inflation` can decode (RFC 9110 §8.4.1 names; 415 + Accept-Encoding otherwise). */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br'

@inject()
export default class InputGateMiddleware {
  constructor(private bodyParser: BodyParserMiddleware) {}

  async handle(ctx: HttpContext, next: NextFn) {
    const { request } = ctx
    const params = ctx.params
    const query = request.parsedUrl.query
    // Clean requests (the common case) allocate nothing here.
    if ((params && !pathParamsClean(params)) || query) {
      const errors: ProblemErrors = {}
      if (params) checkPathParams(params, errors)
      if (query) {
        checkPercentEncoding(query, errors)
        checkValues(request.qs(), errors)
      }
      if (hasAny(errors)) throw Problem.badRequest(errors, GATE_DETAIL)
    }

    let parsed = false
    try {
      return await this.bodyParser.handle(ctx, () => {
        parsed = true
        if (request.bodyType === 'json' || request.bodyType === 'urlencoded') checkBody(ctx)
        return next()
      })
    } catch (error) {
      if (parsed) throw error
      throw bodyProblem(error, request.header('content-encoding'))
    }
  }
}

function checkBody(ctx: HttpContext) {
  const errors: ProblemErrors = {}
  if (ctx.request.bodyType === 'urlencoded') checkPercentEncoding(ctx.request.raw() ?? '', errors)
  checkValues(ctx.request.body(), errors)
  if (hasAny(errors)) throw Problem.badRequest(errors, GATE_DETAIL)
}

function hasAny(errors: ProblemErrors) {
  for (const _ in errors) return true
  return false
}

/** The body parser's refusals as problem documents. */
function bodyProblem(error: any, contentEncoding: string | undefined): unknown {
  if (error instanceof Problem) return error
  if (error?.code === 'E_REQUEST_ENTITY_TOO_LARGE' || error?.code === 'E_REQUEST_ABORTED')
    return error
  if (
    error?.code === 'E_ENCODING_UNSUPPORTED' ||
    (error?.status === 415 && /Content-Encoding/i.test(error.message))
  ) {
    return new Problem(415, {
      detail: `Content-Encoding no admitido; use ${ACCEPTED_ENCODINGS} o ninguno.`,
      headers: { 'Accept-Encoding': ACCEPTED_ENCODINGS },
    })
  }
  // zlib (`Z_DATA_ERROR`) and brotli (`ERR__ERROR_FORMAT_…`) refusals alike.
  if (
    contentEncoding &&
    contentEncoding !== 'identity' &&
    (error?.errno !== undefined || /^(Z_|ERR_)/.test(error?.code ?? ''))
  ) {
    const detail = 'El cuerpo no se pudo descomprimir según su Content-Encoding.'
    return Problem.badRequest({ _: [detail] }, detail)
  }
  if (error?.status === 422) {
    const detail = 'El cuerpo debe ser un objeto o una lista JSON.'
    return Problem.badRequest({ _: [detail] }, detail)
  }
  if (error instanceof SyntaxError || error instanceof RangeError || error?.status === 400) {
    const detail = 'El cuerpo no es JSON válido.'
    return Problem.badRequest({ _: [detail] }, detail)
  }
  return error
}
