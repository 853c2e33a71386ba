import db from '@adonisjs/lucid/services/db'
import type { JobHandler } from '#core/jobs/types'

/** Closes the resend window of inquiries whose window has run out (index `inquiries_resend_open`). */
export default class ExpireResendJob implements JobHandler {
  async handle() {
    await db
      .from('inquiries')
      .where('resend_open', true)
      .where('resend_closes_at', '<=', db.raw('now()'))
      .update({ resend_open: false })
  }
}
