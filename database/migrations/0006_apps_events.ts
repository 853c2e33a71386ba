import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * App events (docs/design.md §14): one row per event addressed to an app,
 * written in the transaction of the change that caused it (outbox). The id is
 * the `webhook-id` of its delivery. GET /v3/eventos reads (app_id, tx, id) in
 * order: `tx` is the writing transaction's id, and only events of transactions
 * older than every running one are listed, so a cursor never passes an event
 * that commits later. `apps.events-prune` drops rows older than 30 days.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('app_events', (table) => {
      table.uuid('id').primary()
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.string('topic', 40).notNullable()
      table.string('kind', 60).notNullable()
      table.jsonb('payload').notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.specificType('tx', 'xid8').notNullable().defaultTo(this.raw('pg_current_xact_id()'))
      table.index(['app_id', 'tx', 'id'])
      table.index(['created_at'])
    })
  }

  async down() {
    this.schema.dropTable('app_events')
  }
}
