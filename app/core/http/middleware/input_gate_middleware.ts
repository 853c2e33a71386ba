/*
 * The input gate on every route (docs/design.md §13), wrapped around the body
 * parser so that what it refuses (a scalar JSON body, a Content-Encoding that
 * does not decode or is unknown, JSON that does not parse) becomes a Spanish
 * problem document too, and a JSON body holding members its operation does not
 * define is a 400 (operation_members.ts). Runs before authentication and every
 * handler, so no query ever sees hostile input. A body that stops arriving while it is read
 * (shorter than its Content-Length) is a 408 that closes the connection:
 * Node's own request timeout would hold it for minutes.
 */
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BodyParserMiddleware from '@adonisjs/core/bodyparser_middleware'
import type { IncomingMessage } from 'node:http'
import { settings } from '#core/settings'
import { drainRest } from '../body_drain.js'
import { streamedRoute } from '../streamed_body.js'
import { assertKnownMembers } from '../operation_members.js'
import { Problem, type ProblemErrors } from '../problem.js'
import {
  GATE_DETAIL,
  checkFormNames,
  checkPathParams,
  checkPercentEncoding,
  checkValues,
  limitMessages,
  pathParamsClean,
} from '../input_gate.js'
import { errorMap } from '../error_map.js'
import { parseJsonBody } from '../json_shape.js'

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
      const errors = errorMap()
      if (params) checkPathParams(params, errors)
      if (query) {
        checkPercentEncoding(query, errors)
        checkValues(request.qs(), errors)
      }
      if (hasAny(errors)) throw Problem.badRequest(errors, GATE_DETAIL)
    }

    // Its handler reads the body as a stream (streamed_body.ts).
    if (streamedRoute(request.method(), request.url())) return next()

    let parsed = false
    const stall = watchBody(request.request)
    try {
      const parsing = this.bodyParser.handle(ctx, () => {
        stall?.stop()
        parsed = true
        // JSON arrives as text (config/bodyparser.ts): its shape is checked before it is parsed.
        if (request.bodyType === 'raw') {
          request.updateBody(parseJsonBody(request.raw() ?? '') as Record<string, any>)
          request.bodyType = 'json'
        }
        if (request.bodyType === 'urlencoded') checkBody(ctx)
        // Forms (the buyers' pages) are not JSON bodies; GETs carry none.
        if (request.bodyType === 'json') return checkJsonBody(ctx).then(() => next())
        return next()
      })
      return await (stall ? Promise.race([parsing, stall.stalled]) : parsing)
    } catch (error) {
      stall?.stop()
      if (parsed) throw error
      if ((error as any)?.code === 'E_REQUEST_ENTITY_TOO_LARGE') drainRest(request.request)
      throw bodyProblem(error, request.header('content-encoding'))
    }
  }
}

type Watch = {
  request: IncomingMessage
  bytes: number
  since: number
  fail: (problem: Problem) => void
}

/** Bodies being read; one timer samples their sockets' byte counts (no listener on the stream). */
const watched = new Set<Watch>()
let sampling: NodeJS.Timeout | null = null

/**
 * Rejects `stalled` when the socket of a request whose body is still on the
 * wire receives nothing for `settings.bodyIdleTimeoutMs`; null when the body
 * already arrived (or there is none).
 */
function watchBody(request: IncomingMessage) {
  if (request.complete || !hasBodyOnWire(request)) return null
  let watch!: Watch
  const stalled = new Promise<never>((_, reject) => {
    watch = { request, bytes: request.socket.bytesRead, since: Date.now(), fail: reject }
  })
  watched.add(watch)
  sampling ??= setTimeout(sample, sampleEvery()).unref()
  return { stalled, stop: () => watched.delete(watch) }
}

function hasBodyOnWire(request: IncomingMessage) {
  const length = request.headers['content-length']
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  )
}

/** A tenth of the idle time (at most 1 s): a 408 comes at most that late. */
function sampleEvery() {
  return Math.min(1000, Math.max(20, settings.bodyIdleTimeoutMs / 10))
}

function sample() {
  const now = Date.now()
  for (const watch of watched) {
    const { request } = watch
    if (request.complete || request.socket.destroyed) {
      watched.delete(watch)
    } else if (request.socket.bytesRead !== watch.bytes) {
      watch.bytes = request.socket.bytesRead
      watch.since = now
    } else if (now - watch.since >= settings.bodyIdleTimeoutMs) {
      watched.delete(watch)
      watch.fail(bodyTimeout())
    }
  }
  sampling = watched.size > 0 ? setTimeout(sample, sampleEvery()).unref() : null
}

function bodyTimeout() {
  const seconds = Math.round(settings.bodyIdleTimeoutMs / 100) / 10
  return new Problem(408, {
    detail: `El cuerpo de la solicitud dejó de llegar (${seconds} s sin datos) antes de completar su Content-Length.`,
    // The rest of the body will not come: the connection cannot carry another request.
    headers: { Connection: 'close' },
  })
}

function checkBody(ctx: HttpContext) {
  const errors = errorMap()
  const { request } = ctx
  if (request.bodyType === 'urlencoded') checkPercentEncoding(request.raw() ?? '', errors)
  // A JSON body is parsed as sent (json_shape.ts): forbidden names are still in it.
  checkValues(request.body(), errors)
  // What the form parser dropped (`__proto__=…`, `Nombre[__proto__]=…`), read from the text.
  if (request.bodyType === 'urlencoded') checkFormNames(request.raw() ?? '', errors)
  if (hasAny(errors)) throw Problem.badRequest(errors, GATE_DETAIL)
}

async function checkJsonBody(ctx: HttpContext) {
  checkBody(ctx)
  await assertKnownMembers(ctx)
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
  // JSON.parse runs out of stack only on nesting thousands of levels deep.
  if (error instanceof RangeError) {
    const detail = limitMessages.depth()
    return Problem.badRequest({ _: [detail] }, detail)
  }
  if (error instanceof SyntaxError || error?.status === 400) {
    const detail = 'El cuerpo no es JSON válido.'
    return Problem.badRequest({ _: [detail] }, detail)
  }
  return error
}
