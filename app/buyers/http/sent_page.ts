/*
 * The confirmation page of the inquiry forms (Post/Redirect/Get): what the
 * POST flashed, or — on a reload or bookmark, when nothing was flashed — back
 * to the page the form is on.
 */
import type { HttpContext } from '@adonisjs/core/http'
import { renderHtml } from '#buyers/http/html'

export function renderSentPage(ctx: HttpContext, flashKey: string, back: string) {
  const sent = ctx.session.flashMessages.get(flashKey)
  if (!sent) return ctx.response.redirect().status(303).toPath(back)
  return renderHtml(ctx, 'inquiry_sent', { sent })
}
