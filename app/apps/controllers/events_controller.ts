import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import EventHistory from '#apps/services/event_history'
import { eventHistoryValidator } from '#apps/validators/event_history_validator'
import { appEventPageShapes } from '#apps/transformers/app_event_transformer'

/** `GET /v3/eventos`: the calling app's events of the last 30 days (docs/design.md §14). */
export default class EventsController {
  @inject()
  async index(ctx: HttpContext, history: EventHistory) {
    const query = await ctx.request.validateUsing(eventHistoryValidator, { data: ctx.request.qs() })
    const page = await history.page(ctx.caller, query)
    if (!page.ok) {
      throw Problem.badRequest({
        desde: ['El cursor no es válido: use el enlace next de una página anterior.'],
      })
    }
    return respond(ctx, appEventPageShapes(page.value, query))
  }
}
