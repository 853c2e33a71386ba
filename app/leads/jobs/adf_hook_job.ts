import type { DeliveryJob } from '#core/outbound/deliveries'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { attemptHook } from './delivery_context.js'

type AdfHookPayload = { configId: number; xml: string }

/** POSTs the ADF 1.0 document with the configured custom header. */
export default class AdfHookJob implements JobHandler<DeliveryJob> {
  async handle(data: DeliveryJob, job: JobContext) {
    await attemptHook<AdfHookPayload>(data, job, 'adfHook', (delivery, payload, config) => ({
      customHeaders: config?.adfHookHeaders ?? [],
      headers: {
        'content-type': 'application/xml; charset=utf-8',
        'webhook-id': delivery.messageId,
      },
      body: payload.xml,
    }))
  }
}
