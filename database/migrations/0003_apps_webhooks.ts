import { BaseSchema } from '@adonisjs/lucid/schema'

/** App-level event subscriptions (`/v3/appnotificaciones/{topic}`), one per app and topic. */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('app_webhooks', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.string('topic', 40).notNullable()
      table.string('callback', 1024).notNullable()
      // Encrypted with APP_KEY (signer.sealSecret); never returned.
      table.text('secret').nullable()
      table.string('description', 200).nullable()
      table.boolean('active').notNullable().defaultTo(true)
      // HeaderCustom01..03 as three slots of {name, value} or null.
      table.jsonb('headers').notNullable().defaultTo('[]')
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
      // Also the index of every read (app_id, topic).
      table.unique(['app_id', 'topic'])
    })
  }

  async down() {
    this.schema.dropTable('app_webhooks')
  }
}
