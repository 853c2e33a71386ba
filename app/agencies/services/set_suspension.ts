/*
 * Suspends or reinstates an agency or one person (docs/design.md §7: activation of
 * listings is refused while either is suspended). Customer-support path.
 */
import Agency from '#agencies/models/agency'
import Operator from '#agencies/models/operator'
import { normalizeEmail } from './emails.js'
import { affected } from './affected.js'

export default class SetSuspension {
  async agency(adminMail: string, suspended: boolean) {
    const updated = await Agency.query()
      .where('admin_email', normalizeEmail(adminMail))
      .update({ suspended })
    return affected(updated) > 0
  }

  async operator(email: string, suspended: boolean) {
    const updated = await Operator.query()
      .where('email', normalizeEmail(email))
      .update({ suspended })
    return affected(updated) > 0
  }
}
