import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Idempotency keys of POSTs (docs/design.md §14): one row per (app, method,
 * path, key). A row without `response_status` is a request still in flight,
 * held until `locked_until`; a completed one keeps the response for replay
 * for 24 hours.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('idempotency_keys', (table) => {
      // The calling app; 0 for the buyers' site forms (no app calls there), hence no foreign key:
      // a deleted app's keys go with the hourly cleanup.
      table.integer('app_id').notNullable()
      table.string('method', 10).notNullable()
      table.text('path').notNullable()
      table.string('key', 255).notNullable()
      // SHA-256 (hex) of the request body: a reused key with another body is refused.
      table.string('fingerprint', 64).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('locked_until', { useTz: true }).nullable()
      table.integer('response_status').nullable()
      table.jsonb('response_headers').nullable()
      table.binary('response_body').nullable()
      // What a replay needs besides the response (the buyers' forms: the confirmation to flash).
      table.jsonb('response_extra').nullable()
      table.primary(['app_id', 'method', 'path', 'key'])
    })
    // The cleanup job deletes by age.
    this.schema.raw('create index idempotency_keys_created on idempotency_keys (created_at)')
  }

  async down() {
    this.schema.dropTable('idempotency_keys')
  }
}
