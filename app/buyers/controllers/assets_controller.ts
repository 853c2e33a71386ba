import type { HttpContext } from '@adonisjs/core/http'
import { etagOf, notModified } from '#core/http/etag'
import { assets } from '#buyers/site'

const etag = etagOf(assets.css)

export default class AssetsController {
  /** The pages link it with `?v=<content hash>`, so it may be cached for a year. */
  stylesheet(ctx: HttpContext) {
    ctx.response.header('Content-Type', 'text/css; charset=utf-8')
    ctx.response.header('Cache-Control', 'public, max-age=31536000, immutable')
    ctx.response.header('ETag', etag)
    if (notModified(ctx, etag)) return ctx.response.status(304).send('')
    return ctx.response.send(assets.css)
  }
}
