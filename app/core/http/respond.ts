/*
 * The one way resources leave the service: negotiation, ETag, 304 and the
 * JSON body of the chosen representation.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { negotiate, type Representation } from './negotiation.js'
import { notModified } from './etag.js'

export type Shapes = { full: () => unknown; ref: () => unknown }

export type RespondOptions = {
  status?: number
  etag?: string
  location?: string
}

export function respond(ctx: HttpContext, shapes: Shapes, options: RespondOptions = {}) {
  const representation: Representation = negotiate(ctx)
  if (options.etag) {
    // Strict: a malformed If-None-Match is a 400 naming it (docs/design.md §19), before any header is set.
    const fresh = ctx.request.method() === 'GET' && notModified(ctx, options.etag, { strict: true })
    ctx.response.header('ETag', options.etag)
    if (fresh) {
      ctx.response.status(304)
      ctx.response.removeHeader('Content-Type')
      return ctx.response.send('')
    }
  }
  if (options.location) ctx.response.header('Location', options.location)
  ctx.response.status(options.status ?? 200)
  const body = representation === 'ref' ? shapes.ref() : shapes.full()
  return ctx.response.send(JSON.stringify(body))
}
