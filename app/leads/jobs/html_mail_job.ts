import mail from '@adonisjs/mail/services/main'
import deliveries, { mailMessageId, type DeliveryJob } from '#core/outbound/deliveries'
import type { JobContext, JobHandler } from '#core/jobs/types'
import Inquiry from '#leads/models/inquiry'
import { renderHtml, renderText } from '#leads/mail/inquiry_mail'

type HtmlMailPayload = {
  configId: number
  subject: string
  bcc: string[]
  agency: { adminMail: string; tradeName: string }
}

/** Mails the inquiry as HTML with a text alternative, to the blind-copy list only. */
export default class HtmlMailJob implements JobHandler<DeliveryJob> {
  async handle({ deliveryId }: DeliveryJob, job: JobContext) {
    await deliveries.attempt(
      deliveryId,
      async (delivery) => {
        const payload = delivery.payload as HtmlMailPayload
        const inquiry = await Inquiry.findOrFail(delivery.ownerId)
        const context = { inquiry, agency: payload.agency }
        const html = await renderHtml(context)
        await mail.send((message) => {
          for (const address of payload.bcc) message.bcc(address)
          message.subject(payload.subject).html(html).text(renderText(context))
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
