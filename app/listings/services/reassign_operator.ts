/*
 * desasociar (docs/spec.md §4.3): the detached collaborator's listings pass to the
 * receiving operator, inside the agencies module's transaction. The sales
 * phone follows the operator (it must be one of the responsible's phones).
 * Registered as the listings module's operator handover (app/listings/boot.ts).
 */
import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { fail, ok, type Result } from '#core/result'
import type { OperatorHandover } from '#agencies/hooks'
import AgencyDirectory from '#agencies/services/agency_directory'

@inject()
export default class ReassignOperator implements OperatorHandover {
  constructor(private directory: AgencyDirectory) {}

  /** Moves every listing of `fromOperatorId` in the agency; answers how many moved. */
  async execute(
    agencyId: number,
    fromOperatorId: number,
    toOperatorId: number,
    trx: TransactionClientContract
  ): Promise<Result<number, 'unknown_operator'>> {
    if (fromOperatorId === toOperatorId) return ok(0)
    const target = await this.directory.memberById(agencyId, toOperatorId, trx)
    if (!target) return fail('unknown_operator')
    const moved = await trx
      .from('listings')
      .where('agency_id', agencyId)
      .where('operator_id', fromOperatorId)
      .update({
        operator_id: target.id,
        operator_email: target.email,
        // Keep the listing's phone when the new responsible has it too.
        phone: target.phones.length
          ? db.raw('case when phone = any(?) then phone else ? end', [
              target.phones,
              target.phones[0],
            ])
          : null,
        revision: db.raw('revision + 1'),
        updated_at: new Date(),
      })
    return ok(Number(moved))
  }
}
