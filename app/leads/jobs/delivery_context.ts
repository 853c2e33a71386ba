/*
 * What the delivery handlers share: the configuration a delivery came from
 * and switching a channel off after the receiver answered 410 Gone.
 */
import NotificationConfig from '#leads/models/notification_config'
import type { Channel } from '#leads/services/notification_fanout'

const ACTIVE_COLUMN: Record<Channel, string> = {
  webhook: 'webhook_active',
  adfHook: 'adf_hook_active',
  adfMail: 'adf_mail_active',
  htmlMail: 'html_mail_active',
}

export function configOf(payload: { configId?: number }) {
  return payload.configId ? NotificationConfig.find(payload.configId) : Promise.resolve(null)
}

/** The receiver said the endpoint is gone for good: stop notifying it. */
export async function deactivateChannel(configId: number | undefined, channel: Channel) {
  if (!configId) return
  await NotificationConfig.query()
    .where('id', configId)
    .update({ [ACTIVE_COLUMN[channel]]: false, updated_at: new Date() })
}
