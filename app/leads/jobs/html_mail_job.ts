import { inject } from '@adonisjs/core'
import type { DeliveryJob } from '#core/outbound/deliveries'
import type { JobContext, JobHandler } from '#core/jobs/types'
import InquiryStore from '#leads/stores/inquiry_store'
import { renderHtml, renderText } from '#leads/mail/inquiry_mail'
import { attemptMail } from './delivery_context.js'

type HtmlMailPayload = {
  configId: number
  subject: string
  bcc: string[]
  agency: { adminMail: string; tradeName: string }
}

/** Mails the inquiry as HTML with a text alternative, to the blind-copy list only; replies go to the buyer. */
@inject()
export default class HtmlMailJob implements JobHandler<DeliveryJob> {
  constructor(private inquiries: InquiryStore) {}

  async handle(data: DeliveryJob, job: JobContext) {
    await attemptMail<HtmlMailPayload>(data, job, async (delivery, payload) => {
      const inquiry = await this.inquiries.find(delivery.ownerId)
      if (!inquiry) throw new Error(`No inquiry ${delivery.ownerId} for delivery ${delivery.id}`)
      const context = { inquiry, agency: payload.agency }
      const html = await renderHtml(context)
      const buyerName = [inquiry.firstName, inquiry.lastName].filter(Boolean).join(' ')
      return (message) => {
        for (const address of payload.bcc) message.bcc(address)
        // A salesperson's reply goes to the buyer, not to the no-reply sender.
        if (inquiry.email) message.replyTo(inquiry.email, buyerName || undefined)
        message.subject(payload.subject).html(html).text(renderText(context))
      }
    })
  }
}
