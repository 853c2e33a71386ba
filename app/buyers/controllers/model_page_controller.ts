import type { HttpContext } from '@adonisjs/core/http'
import { renderError } from '#buyers/http/html'

/** Catalogue model pages: pending the catalogue's browse services. */
export default class ModelPageController {
  async show(ctx: HttpContext) {
    return renderError(ctx, 404)
  }

  async inquire(ctx: HttpContext) {
    return renderError(ctx, 404)
  }

  async sent(ctx: HttpContext) {
    return renderError(ctx, 404)
  }
}
