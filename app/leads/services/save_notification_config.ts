/*
 * PUT of the lead-notification configuration of one agency for one app: the
 * body replaces the stored channels (an absent or null channel is removed).
 * The Secret is sealed at rest; null or absent keeps the stored one, '' drops it.
 */
import db from '@adonisjs/lucid/services/db'
import { sealSecret } from '#core/outbound/signer'
import NotificationConfig from '#leads/models/notification_config'
import type { StoredHeader } from '#leads/models/notification_config'
import {
  splitEmails,
  type NotificationConfigInput,
} from '#leads/validators/notification_validators'

type WireHeader = { Name: string; Value: string } | null | undefined

const stored = (...headers: WireHeader[]): StoredHeader[] =>
  headers.map((item) => (item ? { name: item.Name, value: item.Value } : null))

export default class SaveNotificationConfig {
  async execute(appId: number, agencyId: number, input: NotificationConfigInput) {
    return db.transaction(async (trx) => {
      // The row exists before it is locked, so concurrent first PUTs queue on
      // the lock instead of racing on the unique (agency_id, app_id) insert.
      await trx
        .table('notification_configs')
        .insert({ app_id: appId, agency_id: agencyId })
        .onConflict(['agency_id', 'app_id'])
        .ignore()
      const config = await NotificationConfig.forApp({ id: appId })
        .useTransaction(trx)
        .where('agency_id', agencyId)
        .forUpdate()
        .firstOrFail()
      config.useTransaction(trx)

      const webhook = input.PublicacionConsultadaWebHook
      config.webhookCallback = webhook?.Callback ?? null
      config.webhookActive = webhook ? (webhook.Activo ?? true) : false
      config.webhookHeaders = webhook
        ? stored(webhook.HeaderCustom01, webhook.HeaderCustom02, webhook.HeaderCustom03)
        : []
      if (!webhook || webhook.Secret === '') config.webhookSecret = null
      else if (webhook.Secret) config.webhookSecret = sealSecret(webhook.Secret)

      const adfHook = input.PublicacionConsultadaAdfHook
      config.adfHookCallback = adfHook?.Callback ?? null
      config.adfHookActive = adfHook ? (adfHook.Activo ?? true) : false
      config.adfHookHeaders = adfHook ? stored(adfHook.HeaderCustom01) : []

      const adfMail = input.PublicacionConsultadaAdfMail
      config.adfMailEmail = adfMail?.Email.toLowerCase() ?? null
      config.adfMailActive = adfMail ? (adfMail.Activo ?? true) : false

      const htmlMail = input.PublicacionConsultadaHtmlMail
      config.htmlMailBcc = htmlMail ? splitEmails(htmlMail.EmailsCCO) : []
      config.htmlMailActive = htmlMail ? (htmlMail.Activo ?? true) : false

      await config.save()
      return config
    })
  }
}
