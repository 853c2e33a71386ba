import { inject } from '@adonisjs/core'
import AppWebhookStore from '#apps/stores/app_webhook_store'
import { DeliveryService, type DeliveryJob } from '#core/outbound/deliveries'
import { postAppEvent } from '#apps/services/post_app_event'
import type { JobContext, JobHandler } from '#core/jobs/types'

/**
 * POSTs an app event to the subscription's Callback: JSON body, the custom
 * headers, Standard Webhooks headers (signed when a Secret is set). Redirects
 * are not followed. A 410 switches the subscription off; a subscription
 * switched off meanwhile stops the delivery's retries.
 */
@inject()
export default class AppWebhookJob implements JobHandler<DeliveryJob> {
  constructor(
    private webhooks: AppWebhookStore,
    private deliveries: DeliveryService
  ) {}

  async handle({ deliveryId }: DeliveryJob, job: JobContext) {
    const deliveries = this.deliveries
    const pending = await deliveries.find(deliveryId)
    if (!pending) return
    const subscription = await this.webhooks.byId(Number(pending.ownerId))
    // Switched off (or a 410 seen) since the event was queued: stop retrying it.
    if (!subscription?.active) return deliveries.cancel(deliveryId, 'subscription inactive')
    const result = await deliveries.attempt(
      deliveryId,
      async (delivery) => {
        const response = await postAppEvent(
          { callback: delivery.target, secret: subscription.secret, headers: subscription.headers },
          { id: delivery.messageId, payload: delivery.payload }
        )
        return { status: response.status, headers: response.headers }
      },
      job
    )
    if (result === 'gone') await this.webhooks.deactivate(subscription.id)
  }
}
