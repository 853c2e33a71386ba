import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { respond } from '#core/http/respond'
import EventHistory from '#apps/services/event_history'
import { eventHistoryValidator } from '#apps/validators/event_history_validator'
import { AppEventTransformer } from '#apps/transformers/app_event_transformer'

/** `GET /v3/eventos`: the calling app's events of the last 30 days (docs/design.md §14). */
export default class EventsController {
  private history = new EventHistory()

  async index(ctx: HttpContext) {
    const query = await eventHistoryValidator.validate(ctx.request.qs())
    const page = await this.history.page(ctx.caller, query)
    if (!page.ok) {
      throw Problem.badRequest({
        desde: ['El cursor no es válido: use el enlace next de una página anterior.'],
      })
    }
    // Events have no reference form: both representations carry the page.
    const body = () => AppEventTransformer.page(page.value, query)
    return respond(ctx, { full: body, ref: body })
  }
}
