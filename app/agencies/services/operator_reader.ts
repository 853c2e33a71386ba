/*
 * Operators as the API shows them: the members of one agency, or one person
 * found through any agency linked to the calling app.
 */
import Operator from '#agencies/models/operator'
import type { OperatorEntry } from '#agencies/transformers/operator_transformer'
import { normalizeEmail } from './emails.js'

export default class OperatorReader {
  /** Members of the agency, administrator first; `email` narrows to one. */
  async members(agencyId: number, agencyEmail: string, email?: string): Promise<OperatorEntry[]> {
    const query = Operator.query()
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .where('memberships.agency_id', agencyId)
      .select('operators.*', 'memberships.is_admin')
      .orderBy('memberships.is_admin', 'desc')
      .orderBy('operators.id')
    if (email) query.where('operators.email', normalizeEmail(email))
    const rows = await query
    return rows.map((operator) => ({
      operator,
      isAdmin: operator.$extras.is_admin === true,
      agencyEmail,
    }))
  }

  /** The person with this e-mail, if they belong to an agency linked to the app. */
  async forApp(
    appId: number,
    email: string
  ): Promise<(OperatorEntry & { agencyId: number }) | null> {
    const operator = await Operator.query()
      .join('memberships', 'memberships.operator_id', 'operators.id')
      .join('agencies', 'agencies.id', 'memberships.agency_id')
      .join('app_agencies', 'app_agencies.agency_id', 'agencies.id')
      .where('app_agencies.app_id', appId)
      .where('operators.email', normalizeEmail(email))
      .select(
        'operators.*',
        'memberships.is_admin',
        'agencies.admin_email as agency_email',
        'agencies.id as agency_id'
      )
      .first()
    if (!operator) return null
    return {
      operator,
      isAdmin: operator.$extras.is_admin === true,
      agencyEmail: operator.$extras.agency_email,
      agencyId: operator.$extras.agency_id,
    }
  }
}
