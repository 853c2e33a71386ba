/*
 * A buyers' page the browser may keep and revalidate: its ETag covers the
 * page data, the templates and the visitor's CSRF secret (the form carries
 * its token), so a 304 never hands one visitor another's token.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { etagOf, notModified } from '#core/http/etag'
import { renderHtml } from '#buyers/http/html'
import { csrfSecretOf } from '#buyers/http/visitor'
import { templatesVersion } from '#buyers/site'

export function renderCachedPage(ctx: HttpContext, view: string, page: object, form: unknown) {
  const etag = etagOf(JSON.stringify(page) + templatesVersion + csrfSecretOf(ctx))
  ctx.response.header('Cache-Control', 'private, no-cache')
  ctx.response.header('Vary', 'Cookie')
  ctx.response.header('ETag', etag)
  if (notModified(ctx, etag)) return ctx.response.status(304).send('')
  return renderHtml(ctx, view, { page, form })
}
