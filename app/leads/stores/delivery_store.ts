/*
 * The operators' log of `deliveries:list` over core's deliveries (an
 * inquiry's own are DeliveryService's `list` and `latest`). Query builder:
 * the filters are dynamic.
 */
import { inject } from '@adonisjs/core'
import { DeliveryService } from '#core/outbound/deliveries'

export type DeliveryLogFilter = { failed?: boolean; stuck?: boolean; limit: number }

@inject()
export default class DeliveryStore {
  constructor(public service: DeliveryService) {}

  /** Every module's deliveries, newest first, and which of them are stuck (open without a live job). */
  async log(filter: DeliveryLogFilter) {
    const stuck = await this.service.stuck().select('id').limit(10_000)
    const stuckIds = new Set(stuck.map((delivery) => delivery.id))
    const query = this.service.all().orderBy('created_at', 'desc').limit(filter.limit)
    if (filter.stuck) query.whereIn('id', [...stuckIds])
    else if (filter.failed)
      query.where((q) => q.whereIn('status', ['failed', 'dead']).orWhereIn('id', [...stuckIds]))
    return { rows: await query, stuckIds }
  }
}
