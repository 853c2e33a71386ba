import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Credentials a dealer can lose safely (docs/design.md §18): a token can be
 * revoked (`revoked_at`), an app disabled (`disabled_at`). `name`,
 * `expires_at` and `last_used_at` already exist on `app_tokens` (0001). The
 * token lookup stays by primary key; listing an app's tokens uses the
 * existing (tokenable_id) index.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('app_tokens', (table) => {
      table.timestamp('revoked_at', { useTz: true }).nullable()
    })
    this.schema.alterTable('apps', (table) => {
      table.timestamp('disabled_at', { useTz: true }).nullable()
    })
  }

  async down() {
    this.schema.alterTable('apps', (table) => {
      table.dropColumn('disabled_at')
    })
    this.schema.alterTable('app_tokens', (table) => {
      table.dropColumn('revoked_at')
    })
  }
}
