import deliveries from './deliveries.js'
import type { JobHandler } from '#core/jobs/types'

/** Each minute: queue again every open delivery that has no live job. */
export default class SweepDeliveriesJob implements JobHandler {
  async handle() {
    await deliveries.sweep()
  }
}
