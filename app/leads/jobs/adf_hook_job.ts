import deliveries, { type DeliveryJob } from '#core/outbound/deliveries'
import outbound from '#core/outbound/http_client'
import { safeHeaders } from '#core/outbound/custom_header'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { configOf, deactivateChannel } from './delivery_context.js'

type AdfHookPayload = { configId: number; xml: string }

/** POSTs the ADF 1.0 document with the configured custom header. */
export default class AdfHookJob implements JobHandler<DeliveryJob> {
  async handle({ deliveryId }: DeliveryJob, job: JobContext) {
    let configId: number | undefined
    const result = await deliveries.attempt(
      deliveryId,
      async (delivery) => {
        const payload = delivery.payload as AdfHookPayload
        configId = payload.configId
        const config = await configOf(payload)
        const response = await outbound.request(delivery.target, {
          method: 'POST',
          headers: {
            ...safeHeaders(config?.adfHookHeaders ?? []),
            'content-type': 'application/xml; charset=utf-8',
            'webhook-id': delivery.messageId,
          },
          body: payload.xml,
          timeoutMs: 15_000,
        })
        return { status: response.status, headers: response.headers }
      },
      job
    )
    if (result === 'gone') await deactivateChannel(configId, 'adfHook')
  }
}
