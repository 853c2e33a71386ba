import { flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { countOf } from '#core/commands/command_input'

/** The most deliveries one listing prints. */
const MAX_LIMIT = 10_000

/** Operators' view of outbound deliveries (webhooks, hooks, mails), newest first. */
export default class DeliveriesList extends AppCommand {
  static commandName = 'deliveries:list'
  static description =
    'List outbound deliveries (--failed: retrying, dead or stuck; --stuck: open without a live job or overdue)'

  @flags.boolean({
    description: 'Only deliveries that are retrying (failed), gave up (dead) or are stuck',
  })
  declare failed: boolean

  @flags.boolean({
    description:
      'Only open deliveries that no job will take (none live, or overdue by over a minute)',
  })
  declare stuck: boolean

  // Text, checked by countOf: `--limit 1.5` or `--limit 1e12` is one line, never a database error.
  @flags.string({ description: `How many (default 50, at most ${MAX_LIMIT})` })
  declare limit: string | undefined

  @flags.boolean({ description: 'One JSON object per line instead of a table' })
  declare json: boolean

  async run() {
    const limit = this.limit === undefined ? 50 : countOf(this.limit, MAX_LIMIT)
    if (limit === null) {
      return this.fail(`--limit must be a whole number from 1 to ${MAX_LIMIT}, not "${this.limit}"`)
    }
    const store = await this.make(() => import('#leads/stores/delivery_store'))
    const { rows, stuckIds } = await store.log({ failed: this.failed, stuck: this.stuck, limit })
    const statusOf = (d: (typeof rows)[number]) =>
      stuckIds.has(d.id) ? `${d.status} (stuck)` : d.status
    if (this.json) {
      for (const d of rows) {
        this.logger.log(
          JSON.stringify({
            id: d.id,
            channel: d.channel,
            owner: `${d.ownerType}:${d.ownerId}`,
            appId: d.appId,
            target: d.target,
            status: d.status,
            stuck: stuckIds.has(d.id),
            attempts: d.attemptCount,
            nextAttemptAt: d.nextAttemptAt?.toISO() ?? null,
            lastError: d.lastError,
            createdAt: d.createdAt.toISO(),
          })
        )
      }
      return
    }
    if (rows.length === 0) {
      return this.logger.info(
        this.stuck ? 'No stuck deliveries' : this.failed ? 'No failed deliveries' : 'No deliveries'
      )
    }
    const table = this.ui
      .table()
      .head(['Id', 'Channel', 'Owner', 'Status', 'Tries', 'Target', 'Last error', 'Created'])
    for (const d of rows) {
      table.row([
        d.id,
        d.channel,
        `${d.ownerType}:${d.ownerId}`,
        statusOf(d),
        String(d.attemptCount),
        d.target.length > 60 ? `${d.target.slice(0, 57)}...` : d.target,
        (d.lastError ?? '').slice(0, 60),
        d.createdAt.toISO() ?? '',
      ])
    }
    table.render()
  }
}
