import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/** Queues a delivery again now: a fresh round of the retry schedule, the same message id. */
export default class DeliveriesRetry extends BaseCommand {
  static commandName = 'deliveries:retry'
  static description = 'Queue a delivery again (by id, see deliveries:list)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Delivery id' })
  declare id: string

  async run() {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(this.id)) {
      this.logger.error(`"${this.id}" is not a delivery id`)
      this.exitCode = 1
      return
    }
    const { default: db } = await import('@adonisjs/lucid/services/db')
    const { deliveries } = await import('#core/outbound/deliveries')
    const resent = await db.transaction((trx) => deliveries.resend(this.id, trx))
    if (resent.length === 0) {
      this.logger.error(`No delivery ${this.id}`)
      this.exitCode = 1
      return
    }
    this.logger.success(
      `Delivery ${this.id} (${resent[0].channel} → ${resent[0].target}) queued again`
    )
  }
}
