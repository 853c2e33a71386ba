/*
 * The leads module's reads of core's deliveries (DeliveryService writes
 * them): an inquiry's deliveries for one app, its latest per channel, and the
 * operators' log of `deliveries:list`. Query builder: the filters are dynamic.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import { Delivery, DeliveryService } from '#core/outbound/deliveries'

export type DeliveryLogFilter = { failed?: boolean; stuck?: boolean; limit: number }

@inject()
export default class DeliveryStore {
  constructor(public service: DeliveryService) {}

  /** The app's deliveries of an inquiry, oldest first, each with its attempts in order. */
  ofInquiry(inquiryId: number, appId: number) {
    return this.service.list('inquiry', inquiryId).where('app_id', appId)
  }

  /** The latest delivery of an inquiry on one channel for one app, or null. */
  latest(inquiryId: number, channel: string, appId: number, tx?: Tx) {
    return Delivery.query({ client: tx })
      .where('owner_type', 'inquiry')
      .where('owner_id', String(inquiryId))
      .where('channel', channel)
      .where('app_id', appId)
      .orderBy('created_at', 'desc')
      .first()
  }

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
