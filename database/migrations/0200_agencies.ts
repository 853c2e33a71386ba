import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Agencies module: people (operators), agencies, who belongs where
 * (memberships), branches, plans, invitations and the app ↔ agency links.
 * E-mails are stored lower-cased, so plain unique indexes are case-insensitive.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('operators', (table) => {
      table.increments('id')
      table.string('email', 254).notNullable().unique()
      table.string('first_name', 50).notNullable().defaultTo('')
      table.string('last_name', 50).notNullable().defaultTo('')
      table.string('work_phone', 20).nullable()
      table.string('whatsapp', 20).nullable()
      table.jsonb('other_phones').notNullable().defaultTo('[]')
      table.integer('region_id').nullable()
      table.integer('city_id').nullable()
      table.string('address', 200).nullable()
      table.string('password_hash', 255).nullable()
      table.boolean('created_via_api').notNullable().defaultTo(false)
      table.boolean('suspended').notNullable().defaultTo(false)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
    })

    this.schema.createTable('agencies', (table) => {
      table.increments('id')
      table.string('admin_email', 254).notNullable().unique()
      table.string('trade_name', 100).notNullable()
      table.boolean('suspended').notNullable().defaultTo(false)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
    })

    // One agency at a time per person; detaching deletes the row, the person stays.
    this.schema.createTable('memberships', (table) => {
      table.increments('id')
      table.integer('agency_id').notNullable().references('agencies.id').onDelete('CASCADE')
      table
        .integer('operator_id')
        .notNullable()
        .references('operators.id')
        .onDelete('CASCADE')
        .unique()
      table.boolean('is_admin').notNullable().defaultTo(false)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.index(['agency_id'])
    })
    this.schema.raw(
      'create unique index memberships_one_admin on memberships (agency_id) where is_admin'
    )

    this.schema.createTable('branches', (table) => {
      table.increments('id')
      table.integer('agency_id').notNullable().references('agencies.id').onDelete('CASCADE')
      table.boolean('is_main').notNullable().defaultTo(false)
      table.string('description', 100).notNullable()
      table.string('email', 254).nullable()
      table.string('phone', 20).nullable()
      table.boolean('phone_is_whatsapp').notNullable().defaultTo(false)
      table.integer('region_id').nullable()
      table.integer('city_id').nullable()
      table.string('address', 200).nullable()
      table.boolean('sales').notNullable().defaultTo(true)
      table.boolean('workshop').notNullable().defaultTo(false)
      table.boolean('parts').notNullable().defaultTo(false)
      table.time('workday_from').nullable()
      table.time('workday_to').nullable()
      table.time('pre_holiday_from').nullable()
      table.time('pre_holiday_to').nullable()
      table.time('holiday_from').nullable()
      table.time('holiday_to').nullable()
      table.string('after_sales_lead_owner', 254).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.index(['agency_id'])
    })

    // The agency's contracted products: active-listing capacity and quota per exposure level.
    this.schema.createTable('plans', (table) => {
      table.increments('id')
      table
        .integer('agency_id')
        .notNullable()
        .references('agencies.id')
        .onDelete('CASCADE')
        .unique()
      table.integer('capacity').notNullable()
      table.integer('quota_high').notNullable()
      table.integer('quota_medium').notNullable()
      table.integer('quota_low').notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
    })

    this.schema.createTable('invitations', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.string('admin_email', 254).notNullable()
      table.string('trade_name', 100).notNullable()
      table.integer('region_id').nullable()
      table.integer('city_id').nullable()
      table.string('address', 200).nullable()
      table.string('phone', 20).nullable()
      table.boolean('phone_is_whatsapp').notNullable().defaultTo(false)
      table.string('admin_first_name', 50).nullable()
      table.string('admin_last_name', 50).nullable()
      // The link's token is HMAC(APP_KEY, nonce): re-derivable for reminders, never stored itself.
      table.string('token_nonce', 64).notNullable()
      table.string('token_hash', 64).notNullable().unique()
      // Mails queued / mails sent: a redelivered mail job whose mail already went out is skipped.
      table.integer('mail_sequence').notNullable().defaultTo(0)
      table.integer('mailed_sequence').notNullable().defaultTo(0)
      // pending → accepted | expired
      table.string('state', 10).notNullable().defaultTo('pending')
      table.timestamp('sent_at', { useTz: true }).notNullable()
      table.timestamp('expires_at', { useTz: true }).notNullable()
      table.timestamp('reminded_at', { useTz: true }).nullable()
      table.timestamp('accepted_at', { useTz: true }).nullable()
      table.integer('agency_id').nullable().references('agencies.id').onDelete('SET NULL')
      table.timestamp('event_queued_at', { useTz: true }).nullable()
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.index(['app_id', 'admin_email'])
      table.index(['state', 'expires_at'])
    })
    this.schema.raw(
      `create unique index invitations_one_pending on invitations (app_id, admin_email) where state = 'pending'`
    )

    this.schema.createTable('app_agencies', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.integer('agency_id').notNullable().references('agencies.id').onDelete('CASCADE')
      table.boolean('receives_other_leads').notNullable().defaultTo(false)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.unique(['app_id', 'agency_id'])
      table.index(['agency_id'])
    })
  }

  async down() {
    this.schema.dropTable('app_agencies')
    this.schema.dropTable('invitations')
    this.schema.dropTable('plans')
    this.schema.dropTable('branches')
    this.schema.dropTable('memberships')
    this.schema.dropTable('agencies')
    this.schema.dropTable('operators')
  }
}
