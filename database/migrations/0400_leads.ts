import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Leads module: buyer inquiries (with the vehicle and operator snapshot taken
 * at reception) and the lead-notification configuration per (agency, app).
 * Agencies, listings and operators are referenced by id only: they belong to
 * other modules, which are read through their services.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('inquiries', (table) => {
      table.bigIncrements('id')
      // Short public id used in paths (/v3/consultas/{adminmail}/{sid}).
      table.string('sid', 16).notNullable().unique()
      // Visibility: the app that published the listing; null for catalogue inquiries.
      table.integer('app_id').nullable().references('apps.id').onDelete('CASCADE')
      // The app that sent the inquiry (the marketplace front end, a partner, …).
      table.integer('source_app_id').nullable().references('apps.id').onDelete('SET NULL')
      table.integer('agency_id').notNullable()
      table.bigInteger('listing_id').nullable()
      table.integer('version_id').nullable()
      table.integer('operator_id').nullable()
      table.string('operator_email', 254).nullable()
      // 'listing' | 'catalog' (TipoAnuncio Publicacion | Catalogo).
      table.string('kind', 10).notNullable()
      table.string('origin', 20).notNullable()
      table.string('external_id', 255).notNullable().defaultTo('')
      table.jsonb('vehicle').notNullable()
      table.string('interest', 20).nullable()
      table.string('first_name', 50).nullable()
      table.string('last_name', 50).nullable()
      table.string('email', 254).nullable()
      table.string('phone', 30).nullable()
      table.string('document_id', 20).nullable()
      table.string('province', 100).nullable()
      table.string('city', 100).nullable()
      table.text('comment').nullable()
      table.jsonb('operation_info').nullable()
      table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.boolean('resend_open').notNullable().defaultTo(true)
      table.timestamp('resend_closes_at', { useTz: true }).notNullable()
    })
    // The list query reads one agency's inquiries for one audience, newest first. The
    // audience is never null (0 = catalogue inquiries), so each audience is an
    // equality on the index and its rows come out already ordered.
    this.schema.raw(
      'alter table inquiries add column audience_app_id integer generated always as (coalesce(app_id, 0)) stored'
    )
    this.schema.raw(
      'create index inquiries_list on inquiries (agency_id, audience_app_id, received_at desc, id desc)'
    )
    this.schema.raw(
      'create index inquiries_operator on inquiries (operator_email, received_at desc) where operator_email is not null'
    )
    this.schema.raw(
      'create index inquiries_resend_open on inquiries (resend_closes_at) where resend_open'
    )
    this.schema.raw('create index inquiries_operator_id on inquiries (agency_id, operator_id)')

    this.schema.createTable('notification_configs', (table) => {
      table.increments('id')
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      table.integer('agency_id').notNullable()
      // Operator who owns the configuration, when one does (moved on desasociar).
      table.integer('owner_operator_id').nullable()
      table.string('webhook_callback', 1024).nullable()
      // Encrypted with APP_KEY; never returned.
      table.text('webhook_secret').nullable()
      table.boolean('webhook_active').notNullable().defaultTo(false)
      table.jsonb('webhook_headers').notNullable().defaultTo('[]')
      table.string('adf_hook_callback', 1024).nullable()
      table.boolean('adf_hook_active').notNullable().defaultTo(false)
      table.jsonb('adf_hook_headers').notNullable().defaultTo('[]')
      table.string('adf_mail_email', 254).nullable()
      table.boolean('adf_mail_active').notNullable().defaultTo(false)
      table.jsonb('html_mail_bcc').notNullable().defaultTo('[]')
      table.boolean('html_mail_active').notNullable().defaultTo(false)
      table.timestamp('created_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.unique(['agency_id', 'app_id'])
      table.index(['app_id'])
    })
  }

  async down() {
    this.schema.dropTable('notification_configs')
    this.schema.dropTable('inquiries')
  }
}
