import { BaseSchema } from '@adonisjs/lucid/schema'

/** Core tables: calling apps, their hashed access tokens, and rate-limit counters. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('apps', (table) => {
      table.increments('id')
      table.string('name', 100).notNullable()
      table.jsonb('abilities').notNullable().defaultTo('[]')
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
    })

    this.schema.createTable('app_tokens', (table) => {
      table.increments('id')
      table.integer('tokenable_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.string('type').notNullable()
      table.string('name').nullable()
      table.string('hash').notNullable()
      table.text('abilities').notNullable()
      table.timestamp('created_at', { useTz: true })
      table.timestamp('updated_at', { useTz: true })
      table.timestamp('last_used_at', { useTz: true }).nullable()
      table.timestamp('expires_at', { useTz: true }).nullable()
      table.index(['tokenable_id'])
    })

    this.schema.createTable('rate_limits', (table) => {
      table.string('key', 255).notNullable().primary()
      table.integer('points', 9).notNullable().defaultTo(0)
      table.bigint('expire').unsigned()
    })
  }

  async down() {
    this.schema.dropTable('rate_limits')
    this.schema.dropTable('app_tokens')
    this.schema.dropTable('apps')
  }
}
