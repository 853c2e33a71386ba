import type { HttpContext } from '@adonisjs/core/http'
import { settings } from '#core/settings'
import { renderHtml } from '#buyers/http/html'
import { RETENTION_MAX_DAYS } from '#buyers/services/privacy/retention_settings'

export default class PrivacyPageController {
  /** GET /privacidad: the notice of docs/design.md §16, linked from every inquiry form. */
  async show(ctx: HttpContext) {
    ctx.response.header('Cache-Control', 'public, max-age=3600')
    return renderHtml(ctx, 'privacy', {
      defaultDays: settings.buyerDataRetentionDays,
      maxYears: Math.round(RETENTION_MAX_DAYS / 365),
    })
  }
}
