import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { respond } from '#core/http/respond'
import { negotiate } from '#core/http/negotiation'
import { agencyOfCaller } from '#agencies/http/agency_of_caller'
import ReadNotificationConfig from '#leads/services/read_notification_config'
import SaveNotificationConfig from '#leads/services/save_notification_config'
import {
  notificationConfigValidator,
  toNotificationSettings,
} from '#leads/validators/notification_validators'
import { notificationConfigShapes } from '#leads/transformers/notification_config_transformer'
import SendNotificationTest from '#leads/services/send_notification_test'
import { notificationTestValidator, toTestChannel } from '#leads/validators/notification_validators'
import { problemFor } from '#leads/http/problems'
import { testEventShapes } from '#apps/transformers/app_event_transformer'

export default class NotificationsController {
  @inject()
  async show(ctx: HttpContext, readConfig: ReadNotificationConfig) {
    const agency = await agencyOfCaller(ctx, 'read')
    const config = await readConfig.execute(ctx.caller.id, agency.id)
    return respond(ctx, notificationConfigShapes(config, agency.adminMail))
  }

  @inject()
  async update(ctx: HttpContext, saveConfig: SaveNotificationConfig) {
    negotiate(ctx) // 406 before the configuration is replaced
    const agency = await agencyOfCaller(ctx, 'write')
    const input = await ctx.request.validateUsing(notificationConfigValidator, {
      data: ctx.request.body(),
    })
    const config = await saveConfig.execute(ctx.caller.id, agency.id, toNotificationSettings(input))
    return respond(ctx, notificationConfigShapes(config, agency.adminMail))
  }

  /** Sends a test payload to the configured channel now and reports how the receiver answered. */
  @inject()
  async test(ctx: HttpContext, sender: SendNotificationTest) {
    negotiate(ctx) // 406 before anything is sent
    // Read isolation: another app's agency answers 404, as the GET does.
    const agency = await agencyOfCaller(ctx, 'read')
    const query = await ctx.request.validateUsing(notificationTestValidator, {
      data: ctx.request.qs(),
    })
    const result = await sender.execute(ctx.caller.id, agency, toTestChannel(query))
    if (!result.ok) throw problemFor(result.reason)
    return respond(ctx, testEventShapes(result.value))
  }
}
