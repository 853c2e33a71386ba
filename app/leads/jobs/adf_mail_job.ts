import type { DeliveryJob } from '#core/outbound/deliveries'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { attemptMail } from './delivery_context.js'

type AdfMailPayload = { configId: number; subject: string; xml: string }

/** Mails the ADF document as the whole plain-text body (what lead-management systems parse). */
export default class AdfMailJob implements JobHandler<DeliveryJob> {
  async handle(data: DeliveryJob, job: JobContext) {
    await attemptMail<AdfMailPayload>(data, job, async (delivery, payload) => (message) => {
      message.to(delivery.target).subject(payload.subject).text(payload.xml)
    })
  }
}
