import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import ReadApplication from '#apps/services/read_application'
import { applicationShapes } from '#apps/transformers/application_transformer'
import { problemFor } from '#apps/http/problems'

/** `GET /v3/aplicacion`: the calling app, as an integrator checks its own setup (docs/design.md §19). */
export default class ApplicationController {
  @inject()
  async show(ctx: HttpContext, reader: ReadApplication) {
    const result = await reader.execute(ctx.caller)
    if (!result.ok) throw problemFor(result.reason)
    return respond(ctx, applicationShapes(result.value))
  }
}
