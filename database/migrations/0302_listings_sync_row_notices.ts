import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A stock sync row's notices (docs/design.md §24): what its write did not do
 * as asked (a `Fotos` list the spec's count rule ignored, an exposure whose
 * quota was full), in domain words; the results page words them as `Avisos`.
 * Expand only: one nullable column.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw("set local lock_timeout = '3s'")
    this.schema.raw("set local statement_timeout = '30s'")
    this.schema.alterTable('listing_sync_rows', (table) => {
      table.jsonb('notices').nullable()
    })
  }

  async down() {
    this.schema.alterTable('listing_sync_rows', (table) => {
      table.dropColumn('notices')
    })
  }
}
