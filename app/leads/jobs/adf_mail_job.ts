import mail from '@adonisjs/mail/services/main'
import deliveries, { mailMessageId, type DeliveryJob } from '#core/outbound/deliveries'
import type { JobContext, JobHandler } from '#core/jobs/types'

type AdfMailPayload = { configId: number; subject: string; xml: string }

/** Mails the ADF document as the whole plain-text body (what lead-management systems parse). */
export default class AdfMailJob implements JobHandler<DeliveryJob> {
  async handle({ deliveryId }: DeliveryJob, job: JobContext) {
    await deliveries.attempt(
      deliveryId,
      async (delivery) => {
        const payload = delivery.payload as AdfMailPayload
        await mail.send((message) => {
          message.to(delivery.target).subject(payload.subject).text(payload.xml)
          // The same Message-ID on every try: a mail sent again after a crash is recognisably the same message.
          message.messageId(mailMessageId(delivery))
          message.header('X-Delivery-Id', delivery.messageId)
        })
        return { status: 200 }
      },
      job
    )
  }
}
