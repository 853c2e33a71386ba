import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * The invitation mail throttle (docs/design.md §13: one mail per address per
 * 10 minutes): when the invitation's last mail was queued. Read and written
 * under the invitation's row lock, so concurrent POSTs queue one mail.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('invitations', (table) => {
      table.timestamp('last_mailed_at', { useTz: true }).nullable()
    })
  }

  async down() {
    this.schema.alterTable('invitations', (table) => {
      table.dropColumn('last_mailed_at')
    })
  }
}
