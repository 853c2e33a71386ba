import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Why a stock sync row was rejected, in domain words (docs/design.md §23): a
 * reason and its details, worded when the row is read. Rows recorded before
 * keep their worded `errors`, shown as stored. Expand only: one nullable column.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw("set local lock_timeout = '3s'")
    this.schema.raw("set local statement_timeout = '30s'")
    this.schema.alterTable('listing_sync_rows', (table) => {
      table.jsonb('rejection').nullable()
    })
  }

  async down() {
    this.schema.alterTable('listing_sync_rows', (table) => {
      table.dropColumn('rejection')
    })
  }
}
