import AppWebhook, { type AppTopic } from '#apps/models/app_webhook'
import type { Caller } from '#core/auth/app_scoped'

/** The calling app's subscriptions — never another app's. */
export default class AppWebhookReader {
  find(caller: Caller, topic: AppTopic) {
    return AppWebhook.forApp(caller).where('topic', topic).first()
  }

  all(caller: Caller) {
    return AppWebhook.forApp(caller).orderBy('topic', 'asc')
  }
}
