import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Core outbound deliveries (webhooks, hooks, mails) and every attempt made for
 * them. Owned by modules through (owner_type, owner_id) — e.g. ('inquiry', '42')
 * or ('app', '7') — and by the app whose configuration asked for them.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('deliveries', (table) => {
      table.uuid('id').primary().defaultTo(this.raw('gen_random_uuid()'))
      table.string('channel', 40).notNullable()
      table.string('owner_type', 40).notNullable()
      table.string('owner_id', 64).notNullable()
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.string('target', 1024).notNullable()
      table.string('status', 12).notNullable().defaultTo('pending')
      table.integer('attempt_count').notNullable().defaultTo(0)
      // Attempts since the delivery was created or last resent: the position in the retry schedule.
      table.integer('round_attempts').notNullable().defaultTo(0)
      table.timestamp('next_attempt_at', { useTz: true }).nullable()
      // Stable Standard Webhooks `webhook-id`, the same across retries and resends.
      table.string('message_id', 64).notNullable()
      table.jsonb('payload').notNullable()
      table.string('queue', 64).notNullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('delivered_at', { useTz: true }).nullable()
      table.text('last_error').nullable()
    })
    this.schema.raw(
      "alter table deliveries add constraint deliveries_status check (status in ('pending', 'delivered', 'failed', 'dead', 'disabled'))"
    )
    // Attempts logs and resends look deliveries up by owner.
    this.schema.raw(
      'create index deliveries_owner on deliveries (owner_type, owner_id, created_at)'
    )
    // Operators list what is stuck (`deliveries:list`).
    this.schema.raw(
      "create index deliveries_unsettled on deliveries (status, created_at) where status in ('failed', 'dead')"
    )
    this.schema.raw('create index deliveries_app on deliveries (app_id)')

    this.schema.createTable('delivery_attempts', (table) => {
      table.bigIncrements('id')
      table.uuid('delivery_id').notNullable().references('deliveries.id').onDelete('CASCADE')
      table.integer('number').notNullable()
      table.timestamp('attempted_at', { useTz: true }).notNullable()
      table.integer('status_code').nullable()
      table.integer('duration_ms').notNullable()
      table.text('error').nullable()
      table.index(['delivery_id', 'attempted_at'])
    })
  }

  async down() {
    this.schema.dropTable('delivery_attempts')
    this.schema.dropTable('deliveries')
  }
}
