import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { Problem } from '#core/http/problem'
import { adminMailParam } from '#core/http/params'
import { respond } from '#core/http/respond'
import { negotiate } from '#core/http/negotiation'
import AgencyDirectory from '#agencies/services/agency_directory'
import NotificationConfig from '#leads/models/notification_config'
import SaveNotificationConfig from '#leads/services/save_notification_config'
import { notificationConfigValidator } from '#leads/validators/notification_validators'
import { NotificationConfigTransformer } from '#leads/transformers/notification_config_transformer'

@inject()
export default class NotificationsController {
  constructor(
    private agencies: AgencyDirectory,
    private saveConfig: SaveNotificationConfig
  ) {}

  async show(ctx: HttpContext) {
    const agency = await this.agencies.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.notFound('La agencia no existe para esta aplicación.')
    const config = await NotificationConfig.forApp(ctx.caller).where('agency_id', agency.id).first()
    return respond(ctx, {
      full: () => NotificationConfigTransformer.full(config, agency.adminMail),
      ref: () => NotificationConfigTransformer.ref(agency.adminMail),
    })
  }

  async update(ctx: HttpContext) {
    negotiate(ctx) // 406 before the configuration is replaced
    const agency = await this.agencies.forApp(ctx.caller.id, await adminMailParam(ctx.params))
    if (!agency) throw Problem.forbidden('La agencia no existe para esta aplicación.')
    const input = await notificationConfigValidator.validate(ctx.request.body())
    const config = await this.saveConfig.execute(ctx.caller.id, agency.id, input)
    return respond(ctx, {
      full: () => NotificationConfigTransformer.full(config, agency.adminMail),
      ref: () => NotificationConfigTransformer.ref(agency.adminMail),
    })
  }
}
