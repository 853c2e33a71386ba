import type { HttpContext } from '@adonisjs/core/http'
import type { Visitor } from '#buyers/services/record_visit'

/** The request as a visitor: its client address and User-Agent. */
export function visitorOf(ctx: HttpContext): Visitor {
  return { ip: ctx.request.ip(), userAgent: ctx.request.header('user-agent') }
}

/**
 * The session's CSRF secret (the key Shield keeps it under), so that a page
 * holding a token of an older session never answers 304.
 */
export function csrfSecretOf(ctx: HttpContext): string {
  return String(ctx.session?.get('csrf-secret') ?? '')
}
