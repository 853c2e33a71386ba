/*
 * Desasociar (docs/spec.md §4.3): the detached operator's inquiries and notification
 * ownership move to the receiving operator, in the caller's transaction. Registered
 * as the leads module's operator handover (app/leads/provider.ts).
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { ok } from '#core/result'
import type { OperatorHandover } from '#agencies/hooks'
import AgencyDirectory from '#agencies/services/agency_directory'
import InquiryStore from '#leads/stores/inquiry_store'
import NotificationConfigStore from '#leads/stores/notification_config_store'

@inject()
export default class ReassignOperator implements OperatorHandover {
  constructor(
    private agencies: AgencyDirectory,
    private inquiries: InquiryStore,
    private configs: NotificationConfigStore
  ) {}

  async execute(agencyId: number, fromOperatorId: number, toOperatorId: number, trx: Tx) {
    const target = await this.agencies.memberById(agencyId, toOperatorId, trx)
    const email = target?.email ?? (await this.operatorEmail(toOperatorId, trx))
    await this.inquiries.moveOperator(agencyId, fromOperatorId, { id: toOperatorId, email }, trx)
    await this.configs.moveOwner(agencyId, fromOperatorId, toOperatorId, trx)
    return ok(undefined)
  }

  private async operatorEmail(operatorId: number, trx: Tx) {
    const operators = await this.agencies.operators([operatorId], trx)
    return operators.get(operatorId)?.email
  }
}
