/*
 * Operators as the API shows them: the members of one agency, or one person
 * found through any agency linked to the calling app.
 */
import { inject } from '@adonisjs/core'
import type { OperatorEntry } from '#agencies/transformers/operator_transformer'
import OperatorStore from '#agencies/stores/operator_store'
import { normalizeEmail } from './emails.js'

@inject()
export default class OperatorReader {
  constructor(private operators: OperatorStore) {}

  /** Members of the agency, administrator first; `email` narrows to one. */
  async members(agencyId: number, agencyEmail: string, email?: string): Promise<OperatorEntry[]> {
    const members = await this.operators.memberRecords(
      agencyId,
      email ? normalizeEmail(email) : undefined
    )
    return members.map((member) => ({ ...member, agencyEmail }))
  }

  /** The person with this e-mail, if they belong to an agency linked to the app. */
  async forApp(
    appId: number,
    email: string
  ): Promise<(OperatorEntry & { agencyId: number }) | null> {
    return this.operators.memberForApp(appId, normalizeEmail(email))
  }
}
