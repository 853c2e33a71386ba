import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

/** Operators' view of outbound deliveries (webhooks, hooks, mails), newest first. */
export default class DeliveriesList extends BaseCommand {
  static commandName = 'deliveries:list'
  static description = 'List outbound deliveries (--failed: only those retrying or dead)'
  static options: CommandOptions = { startApp: true }

  @flags.boolean({ description: 'Only deliveries that are retrying (failed) or gave up (dead)' })
  declare failed: boolean

  @flags.number({ description: 'How many (default 50)' })
  declare limit: number

  @flags.boolean({ description: 'One JSON object per line instead of a table' })
  declare json: boolean

  async run() {
    const { Delivery } = await import('#core/outbound/deliveries')
    const query = Delivery.query().orderBy('created_at', 'desc').limit(this.limit > 0 ? this.limit : 50)
    if (this.failed) query.whereIn('status', ['failed', 'dead'])
    const rows = await query
    if (this.json) {
      for (const d of rows) {
        this.logger.log(
          JSON.stringify({
            id: d.id, channel: d.channel, owner: `${d.ownerType}:${d.ownerId}`, appId: d.appId, target: d.target,
            status: d.status, attempts: d.attemptCount, nextAttemptAt: d.nextAttemptAt?.toISO() ?? null,
            lastError: d.lastError, createdAt: d.createdAt.toISO(),
          })
        )
      }
      return
    }
    if (rows.length === 0) return this.logger.info(this.failed ? 'No failed deliveries' : 'No deliveries')
    const table = this.ui.table().head(['Id', 'Channel', 'Owner', 'Status', 'Tries', 'Target', 'Last error', 'Created'])
    for (const d of rows) {
      table.row([
        d.id, d.channel, `${d.ownerType}:${d.ownerId}`, d.status, String(d.attemptCount),
        d.target.length > 60 ? `${d.target.slice(0, 57)}...` : d.target,
        (d.lastError ?? '').slice(0, 60), d.createdAt.toISO() ?? '',
      ])
    }
    table.render()
  }
}
