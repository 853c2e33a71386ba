import deliveries, { type DeliveryJob } from '#core/outbound/deliveries'
import outbound from '#core/outbound/http_client'
import { openSecret, signWebhook } from '#core/outbound/signer'
import { safeHeaders } from '#core/outbound/custom_header'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { configOf, deactivateChannel } from './delivery_context.js'

type WebhookPayload = { configId: number; body: string }

/** POSTs the `PublicacionConsultada` payload, signed the Standard Webhooks way. */
export default class WebhookJob implements JobHandler<DeliveryJob> {
  async handle({ deliveryId }: DeliveryJob, job: JobContext) {
    let configId: number | undefined
    const result = await deliveries.attempt(
      deliveryId,
      async (delivery) => {
        const payload = delivery.payload as WebhookPayload
        configId = payload.configId
        const config = await configOf(payload)
        const secret = openSecret(config?.webhookSecret)
        const timestamp = Math.floor(Date.now() / 1000)
        const signed = secret
          ? signWebhook({ id: delivery.messageId, timestamp, body: payload.body, secret })
          : { 'webhook-id': delivery.messageId, 'webhook-timestamp': String(timestamp) }
        const response = await outbound.request(delivery.target, {
          method: 'POST',
          headers: {
            ...safeHeaders(config?.webhookHeaders ?? []),
            'content-type': 'application/json; charset=utf-8',
            ...signed,
          },
          body: payload.body,
          timeoutMs: 15_000,
        })
        return { status: response.status, headers: response.headers }
      },
      job
    )
    if (result === 'gone') await deactivateChannel(configId, 'webhook')
  }
}
