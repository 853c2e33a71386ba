/*
 * Desasociar (docs/spec.md §4.3): the detached operator's inquiries and notification
 * ownership move to the receiving operator, in the caller's transaction. Registered
 * as the leads module's operator handover (app/leads/boot.ts).
 */
import { inject } from '@adonisjs/core'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { ok } from '#core/result'
import type { OperatorHandover } from '#agencies/hooks'
import AgencyDirectory from '#agencies/services/agency_directory'

@inject()
export default class ReassignOperator implements OperatorHandover {
  constructor(private agencies: AgencyDirectory) {}

  async execute(
    agencyId: number,
    fromOperatorId: number,
    toOperatorId: number,
    trx: TransactionClientContract
  ) {
    const target = await this.agencies.memberById(agencyId, toOperatorId, trx)
    const email = target?.email ?? (await this.operatorEmail(toOperatorId, trx))
    await trx
      .from('inquiries')
      .where('agency_id', agencyId)
      .where('operator_id', fromOperatorId)
      .update({ operator_id: toOperatorId, ...(email ? { operator_email: email } : {}) })
    await trx
      .from('notification_configs')
      .where('agency_id', agencyId)
      .where('owner_operator_id', fromOperatorId)
      .update({ owner_operator_id: toOperatorId, updated_at: new Date() })
    return ok(undefined)
  }

  private async operatorEmail(operatorId: number, trx: TransactionClientContract) {
    const operators = await this.agencies.operators([operatorId], trx)
    return operators.get(operatorId)?.email
  }
}
