import type { DeliveryJob } from '#core/outbound/deliveries'
import { openSecret, signWebhook } from '#core/outbound/signer'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { attemptHook } from './delivery_context.js'

type WebhookPayload = { configId: number; body: string }

/** POSTs the `PublicacionConsultada` payload, signed the Standard Webhooks way. */
export default class WebhookJob implements JobHandler<DeliveryJob> {
  async handle(data: DeliveryJob, job: JobContext) {
    await attemptHook<WebhookPayload>(data, job, 'webhook', (delivery, payload, config) => {
      const secret = openSecret(config?.webhookSecret)
      const timestamp = Math.floor(Date.now() / 1000)
      const signed = secret
        ? signWebhook({ id: delivery.messageId, timestamp, body: payload.body, secret })
        : { 'webhook-id': delivery.messageId, 'webhook-timestamp': String(timestamp) }
      return {
        customHeaders: config?.webhookHeaders ?? [],
        headers: { 'content-type': 'application/json; charset=utf-8', ...signed },
        body: payload.body,
      }
    })
  }
}
