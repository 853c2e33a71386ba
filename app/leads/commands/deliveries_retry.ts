import { args } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

/** Queues a delivery again now: a fresh round of the retry schedule, the same message id. */
export default class DeliveriesRetry extends AppCommand {
  static commandName = 'deliveries:retry'
  static description = 'Queue a delivery again (by id, see deliveries:list)'

  @args.string({ description: 'Delivery id' })
  declare id: string

  async run() {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(this.id)) {
      return this.fail(`"${this.id}" is not a delivery id`)
    }
    const { DeliveryService } = await import('#core/outbound/deliveries')
    const deliveries = await this.app.container.make(DeliveryService)
    // Without a transaction `resend` opens its own unit of work: a command opens none.
    const resent = await deliveries.resend(this.id)
    if (resent.length === 0) {
      return this.fail(`No delivery ${this.id}`)
    }
    this.logger.success(
      `Delivery ${this.id} (${resent[0].channel} → ${resent[0].target}) queued again`
    )
  }
}
