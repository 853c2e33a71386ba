/*
 * PATCH /v3/operadores/{adminmail}/desasociar: the collaborator leaves the
 * agency; their listings, inquiries and notification ownership pass to the
 * receiving member in the same transaction. The person stays a user and may
 * join another agency later.
 */
import { inject } from '@adonisjs/core'
import UnitOfWork from '#core/database/unit_of_work'
import { fail, ok, type Fail, type Ok } from '#core/result'
import { AgencyHooks } from '#agencies/hooks'
import OperatorStore from '#agencies/stores/operator_store'
import { normalizeEmail } from './emails.js'

/** Why the leaving person cannot leave, and why the receiving one cannot take their work. */
export type DetachIssues = {
  leaving?: 'not_member' | 'administrator'
  receiving?: 'not_member' | 'suspended' | 'same_person' | 'handover_refused'
}
export type DetachFailure = Fail<'cannot_detach', DetachIssues>

/** A module's handover refused the receiving member: the detach rolls back. */
class HandoverRefused extends Error {}

@inject()
export default class DetachOperator {
  constructor(
    private operators: OperatorStore,
    private hooks: AgencyHooks,
    private unitOfWork: UnitOfWork
  ) {}

  async execute(
    agencyId: number,
    email: string,
    destinationEmail: string
  ): Promise<Ok<void> | DetachFailure> {
    const handovers = await this.hooks.operatorHandovers()
    try {
      return await this.unitOfWork.run(async (tx) => {
        // Writers naming a responsible member wait (AgencyDirectory.holdMembers), so none can hand
        // work to the leaving person after its listings moved. Then the memberships: two detaches
        // cannot hand work to each other.
        await this.operators.lockHandover(agencyId, tx)
        await this.operators.lockMemberships(agencyId, tx)
        const [leaving, receiving] = await Promise.all([
          this.operators.member(agencyId, normalizeEmail(email), tx),
          this.operators.member(agencyId, normalizeEmail(destinationEmail), tx),
        ])
        const issues: DetachIssues = {}
        if (!leaving) issues.leaving = 'not_member'
        else if (leaving.is_admin === true) issues.leaving = 'administrator'
        if (!receiving) issues.receiving = 'not_member'
        else if (receiving.suspended) issues.receiving = 'suspended'
        if (leaving && receiving && leaving.id === receiving.id) issues.receiving = 'same_person'
        if (issues.leaving || issues.receiving || !leaving || !receiving) {
          return fail('cannot_detach', { details: issues })
        }

        // The single place where work changes hands: the modules' handovers (listings, then
        // leads, in provider order, adonisrc.ts; agencies/hooks.ts).
        for (const handover of handovers) {
          const moved = await handover.execute(agencyId, leaving.id, receiving.id, tx)
          // What earlier handovers moved must not stay moved.
          if (!moved.ok) throw new HandoverRefused()
        }
        await this.operators.removeMember(agencyId, leaving.id, tx)
        return ok(undefined)
      })
    } catch (error) {
      if (!(error instanceof HandoverRefused)) throw error
      return fail('cannot_detach', { details: { receiving: 'handover_refused' } })
    }
  }
}
