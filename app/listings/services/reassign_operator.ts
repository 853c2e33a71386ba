/*
 * desasociar (docs/spec.md §4.3): the detached collaborator's listings pass to the
 * receiving operator, inside the agencies module's transaction. The sales
 * phone follows the operator (it must be one of the responsible's phones).
 * Registered as the listings module's operator handover (app/listings/provider.ts).
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'
import type { OperatorHandover } from '#agencies/hooks'
import AgencyDirectory from '#agencies/services/agency_directory'
import ListingStore from '#listings/stores/listing_store'

@inject()
export default class ReassignOperator implements OperatorHandover {
  constructor(
    private directory: AgencyDirectory,
    private listings: ListingStore
  ) {}

  /** Moves every listing of `fromOperatorId` in the agency; answers how many moved. */
  async execute(
    agencyId: number,
    fromOperatorId: number,
    toOperatorId: number,
    tx: Tx
  ): Promise<Result<number, 'unknown_operator'>> {
    if (fromOperatorId === toOperatorId) return ok(0)
    const target = await this.directory.memberById(agencyId, toOperatorId, tx)
    if (!target) return fail('unknown_operator')
    return ok(await this.listings.reassignOperator(agencyId, fromOperatorId, target, tx))
  }
}
