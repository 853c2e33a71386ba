/*
 * PUT of the lead-notification configuration of one agency for one app: the
 * settings replace the stored channels (a null channel is removed). The
 * Secret is sealed at rest; undefined keeps the stored one, null drops it.
 */
import { inject } from '@adonisjs/core'
import { UnitOfWork } from '#core/database/unit_of_work'
import { sealSecret } from '#core/outbound/signer'
import NotificationConfigStore from '#leads/stores/notification_config_store'
import type { NotificationSettings } from '#leads/validators/notification_validators'

@inject()
export default class SaveNotificationConfig {
  constructor(
    private configs: NotificationConfigStore,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(appId: number, agencyId: number, settings: NotificationSettings) {
    return this.unitOfWork.run(async (tx) => {
      const config = await this.configs.lockForReplace(appId, agencyId, tx)
      const { webhook, adfHook, adfMail, htmlMail } = settings

      config.webhookCallback = webhook?.callback ?? null
      config.webhookActive = webhook?.active ?? false
      config.webhookHeaders = webhook?.headers ?? []
      if (!webhook || webhook.secret === null) config.webhookSecret = null
      else if (webhook.secret) config.webhookSecret = sealSecret(webhook.secret)

      config.adfHookCallback = adfHook?.callback ?? null
      config.adfHookActive = adfHook?.active ?? false
      config.adfHookHeaders = adfHook?.headers ?? []

      config.adfMailEmail = adfMail?.email ?? null
      config.adfMailActive = adfMail?.active ?? false

      config.htmlMailBcc = htmlMail?.bcc ?? []
      config.htmlMailActive = htmlMail?.active ?? false

      return this.configs.save(config, tx)
    })
  }
}
