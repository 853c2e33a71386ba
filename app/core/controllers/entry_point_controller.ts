import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { entryPoint, entryPointEtag, entryPointRef } from '#core/entry_point'

export default class EntryPointController {
  show(ctx: HttpContext) {
    return respond(
      ctx,
      { full: () => entryPoint, ref: () => entryPointRef },
      { etag: entryPointEtag }
    )
  }
}
