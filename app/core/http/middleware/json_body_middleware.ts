/*
 * The API speaks JSON only: a body of any other type is a 415 problem before
 * the body parser looks at it. Only methods whose body the parser reads
 * (config/bodyparser.ts) are checked: a GET's body is ignored, not refused.
 */
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import { Problem } from '../problem.js'
import { streamedRoute } from '../streamed_body.js'

/** The body parser's `allowedMethods`; the OpenAPI document declares 413 and 415 on them. */
export const JSON_BODY_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE']

const JSON_TYPE = /^application\/([a-z.+-]*\+)?json$|^text\/json$/

export default class JsonBodyMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    const { request } = ctx
    if (
      request.url().startsWith('/v3') &&
      JSON_BODY_METHODS.includes(request.method()) &&
      hasBody(ctx)
    ) {
      const type = (request.header('content-type') ?? '').split(';')[0].trim().toLowerCase()
      const streamed = streamedRoute(request.method(), request.url())
      if (streamed) {
        if (!streamed.types.test(type)) {
          throw new Problem(415, {
            detail: `Envíe el cuerpo como ${streamed.accept}.`,
            headers: { 'Accept-Post': streamed.accept },
          })
        }
      } else if (!JSON_TYPE.test(type)) {
        throw new Problem(415, {
          detail: 'Envíe el cuerpo como application/json.',
          headers: { 'Accept-Post': 'application/json', 'Accept-Patch': 'application/json' },
        })
      }
    }
    return next()
  }
}

function hasBody(ctx: HttpContext) {
  const length = ctx.request.header('content-length')
  return (
    (length !== undefined && length !== '0') ||
    ctx.request.header('transfer-encoding') !== undefined
  )
}
