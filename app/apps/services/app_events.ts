/*
 * App-level events (docs/design.md §6, §9). Another module calls, inside the
 * transaction of the write that causes the event:
 *
 *   await new AppEvents().emit(appId, 'invitaciones',
 *     { Tipo: 'InvitacionAceptada', Momento, Agencia: <Agencia reference> }, trx)
 *
 * When the app has an active subscription to the topic, an `apps.webhook`
 * delivery is created and queued in `trx` (signed Standard Webhooks POST to the
 * subscription's Callback, retried per docs/design.md §8); otherwise nothing happens.
 * Returns the delivery, or null.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import AppWebhook, { type AppTopic } from '#apps/models/app_webhook'
import deliveries from '#core/outbound/deliveries'
import { APP_WEBHOOK_QUEUE } from '#apps/jobs'

export default class AppEvents {
  async emit(appId: number, topic: AppTopic, payload: object, trx: TransactionClientContract) {
    const subscription = await AppWebhook.query({ client: trx })
      .where('app_id', appId)
      .where('topic', topic)
      .where('active', true)
      .first()
    if (!subscription) return null
    return deliveries.create(
      {
        channel: `app.${topic}`,
        ownerType: 'app_webhook',
        ownerId: subscription.id,
        appId,
        target: subscription.callback,
        payload,
        queue: APP_WEBHOOK_QUEUE,
      },
      trx
    )
  }
}
