import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * Buyers' personal data (docs/design.md §16, docs/privacy.md): an agency's
 * retention setting, the privacy requests apps file for it (access and
 * suppression) with the export an access request produces, and the audit of
 * every request, command and retention run — which holds no personal data,
 * only an HMAC of the identifiers under APP_KEY.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.createTable('privacy_settings', (table) => {
      table.integer('agency_id').primary()
      table.integer('retention_days').notNullable()
      table.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(this.now())
    })

    this.schema.createTable('privacy_requests', (table) => {
      table.uuid('id').primary().defaultTo(this.raw('gen_random_uuid()'))
      table.integer('agency_id').notNullable()
      // The app that filed it: only it reads it (docs/decisions/buyers.md, "Privacy requests").
      table.integer('app_id').notNullable().references('apps.id').onDelete('CASCADE')
      // 'access' | 'erasure' (Acceso | Supresion).
      table.string('kind', 10).notNullable()
      // 'pending' | 'done' (Pendiente | Terminada).
      table.string('state', 10).notNullable().defaultTo('pending')
      table.timestamp('received_at', { useTz: true }).notNullable().defaultTo(this.now())
      table.timestamp('due_at', { useTz: true }).notNullable()
      table.timestamp('done_at', { useTz: true }).nullable()
      table.integer('matched').nullable()
      // The identifiers as given, until the job has matched them: nulled when the request is done.
      table.jsonb('identifiers').nullable()
      // Masked forms, kept for the list (`j***@example.com`, `***4567`).
      table.string('masked_email', 254).nullable()
      table.string('masked_phone', 30).nullable()
      table.string('masked_document', 30).nullable()
      // Access: the export, kept 30 days, then purged (the row stays: 410).
      table.jsonb('export').nullable()
      table.timestamp('export_expires_at', { useTz: true }).nullable()
    })
    this.schema.raw(
      "alter table privacy_requests add constraint privacy_requests_kind check (kind in ('access', 'erasure'))"
    )
    this.schema.raw(
      "alter table privacy_requests add constraint privacy_requests_state check (state in ('pending', 'done'))"
    )
    // The list: one app's requests of one agency, newest first.
    this.schema.raw(
      'create index privacy_requests_list on privacy_requests (agency_id, app_id, received_at desc, id desc)'
    )
    // The daily purge of expired exports.
    this.schema.raw(
      'create index privacy_requests_export on privacy_requests (export_expires_at) where export is not null'
    )

    this.schema.createTable('privacy_audit', (table) => {
      table.bigIncrements('id')
      table.timestamp('at', { useTz: true }).notNullable().defaultTo(this.now())
      // 'request' (API) | 'command' (ace) | 'retention' (the daily job).
      table.string('source', 10).notNullable()
      // 'access' | 'erasure'.
      table.string('kind', 10).notNullable()
      // null: every agency (a command without --agency).
      table.integer('agency_id').nullable()
      table.integer('app_id').nullable()
      table.uuid('request_id').nullable()
      // HMAC-SHA256 (hex) of the normalised identifiers under APP_KEY: no personal data.
      table.string('subject_hmac', 64).nullable()
      table.integer('matched').notNullable().defaultTo(0)
    })
  }

  async down() {
    this.schema.dropTable('privacy_audit')
    this.schema.dropTable('privacy_requests')
    this.schema.dropTable('privacy_settings')
  }
}
