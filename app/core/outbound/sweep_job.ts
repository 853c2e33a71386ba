import { inject } from '@adonisjs/core'
import { DeliveryService } from './deliveries.js'
import type { JobHandler } from '#core/jobs/types'

/** Each minute: queue again every open delivery that has no live job. */
@inject()
export default class SweepDeliveriesJob implements JobHandler {
  constructor(private deliveries: DeliveryService) {}

  async handle() {
    await this.deliveries.sweep()
  }
}
