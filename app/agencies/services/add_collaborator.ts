/*
 * Adds a collaborator to an agency. A person detached from another agency is
 * still a user: they join with their existing account.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { fail, ok, type Result } from '#core/result'
import Operator from '#agencies/models/operator'
import Membership from '#agencies/models/membership'
import { normalizeEmail } from './emails.js'
import { splitPhones } from './phones.js'

export type NewCollaborator = {
  email: string
  firstName?: string | null
  lastName?: string | null
  phones?: string[]
}

export default class AddCollaborator {
  async execute(
    agencyId: number,
    input: NewCollaborator,
    trx: TransactionClientContract
  ): Promise<Result<Operator, 'already_member' | 'member_elsewhere'>> {
    const email = normalizeEmail(input.email)
    let operator = await Operator.query({ client: trx }).where('email', email).forUpdate().first()
    if (operator) {
      const membership = await Membership.query({ client: trx })
        .where('operator_id', operator.id)
        .first()
      if (membership)
        return fail(membership.agencyId === agencyId ? 'already_member' : 'member_elsewhere')
    } else {
      operator = await Operator.create(
        {
          email,
          firstName: input.firstName ?? '',
          lastName: input.lastName ?? '',
          ...splitPhones(input.phones ?? []),
          createdViaApi: true,
          suspended: false,
        },
        { client: trx }
      )
    }
    await Membership.create({ agencyId, operatorId: operator.id, isAdmin: false }, { client: trx })
    return ok(operator)
  }
}
