import { inject } from '@adonisjs/core'
import type { AppTopic } from '#apps/topics'
import AppWebhookStore from '#apps/stores/app_webhook_store'
import type { Caller } from '#core/auth/app_scoped'

/** The calling app's subscriptions — never another app's. */
@inject()
export default class AppWebhookReader {
  constructor(private webhooks: AppWebhookStore) {}

  find(caller: Caller, topic: AppTopic) {
    return this.webhooks.find(caller.id, topic)
  }

  all(caller: Caller) {
    return this.webhooks.all(caller.id)
  }
}
