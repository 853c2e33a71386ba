import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import InquiryStore from '#leads/stores/inquiry_store'

/** Closes the resend window of inquiries whose window has run out (docs/decisions/leads.md, Leads: "Resend window"). */
@inject()
export default class ExpireResendJob implements JobHandler {
  constructor(private inquiries: InquiryStore) {}

  async handle() {
    await this.inquiries.closeExpiredResendWindows()
  }
}
