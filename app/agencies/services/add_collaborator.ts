/*
 * POST /v3/operadores/{adminmail}: adds a collaborator to an agency. A person
 * detached from another agency is still a user: they join with their existing
 * account.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork, { type Tx } from '#core/database/unit_of_work'
import { retryOnUniqueViolation } from '#core/database/errors'
import { fail, ok, type Result } from '#core/result'
import type Operator from '#agencies/models/operator'
import OperatorStore from '#agencies/stores/operator_store'
import { normalizeEmail } from './emails.js'
import { splitPhones } from './phones.js'

export type NewCollaborator = {
  email: string
  firstName?: string | null
  lastName?: string | null
  phones?: string[]
}

export type CollaboratorFailure = 'already_member' | 'member_elsewhere'

@inject()
export default class AddCollaborator {
  constructor(
    private operators: OperatorStore,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(
    agencyId: number,
    input: NewCollaborator
  ): Promise<Result<Operator, CollaboratorFailure>> {
    // A concurrent first POST of the same person loses on the unique e-mail: its replay answers the sequential 409.
    return retryOnUniqueViolation(
      ['operators_email_unique', 'memberships_operator_id_unique'],
      () => this.unitOfWork.run((tx) => this.within(agencyId, input, tx))
    )
  }

  /** The same, inside the caller's transaction (creating an agency with its team at once). */
  async within(
    agencyId: number,
    input: NewCollaborator,
    tx: Tx
  ): Promise<Result<Operator, CollaboratorFailure>> {
    const email = normalizeEmail(input.email)
    let operator = await this.operators.byEmail(email, tx, { forUpdate: true })
    if (operator) {
      const agencyOf = await this.operators.agencyOf(operator.id, tx)
      if (agencyOf !== null)
        return fail(agencyOf === agencyId ? 'already_member' : 'member_elsewhere')
    } else {
      operator = await this.operators.create(
        {
          email,
          firstName: input.firstName ?? '',
          lastName: input.lastName ?? '',
          ...splitPhones(input.phones ?? []),
          createdViaApi: true,
        },
        tx
      )
    }
    await this.operators.addMember(agencyId, operator.id, false, tx)
    return ok(operator)
  }
}
