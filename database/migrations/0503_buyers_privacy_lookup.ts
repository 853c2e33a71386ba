import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What the buyers' privacy requests need of the leads and core tables
 * (docs/design.md §16). Numbered with the buyers' migrations because the
 * feature is the buyers module's; the tables stay their owners' and only their
 * stores read them.
 *
 * - `inquiries.buyer_erased_at`: when the buyer's fields were suppressed (a
 *   request, a command or retention); an erased inquiry cannot be resent (410).
 * - Finding one person among an agency's inquiries by index only: e-mail
 *   case-insensitively, the document by its digits, the phone by its digits
 *   reversed (one number's digits end with the other's: a prefix of the
 *   reversed digits, `text_pattern_ops`).
 * - Retention: the oldest inquiries not yet erased.
 * - Deliveries whose payload still holds something, for the daily emptying;
 *   deliveries by message id (an app event's delivery carries the event's id).
 * - App events by the resource they are about (an inquiry's href).
 */
export default class extends BaseSchema {
  async up() {
    this.schema.alterTable('inquiries', (table) => {
      table.timestamp('buyer_erased_at', { useTz: true }).nullable()
    })
    this.schema.raw(
      'create index inquiries_buyer_email on inquiries (agency_id, lower(email)) where email is not null'
    )
    this.schema.raw(
      `create index inquiries_buyer_document on inquiries (agency_id, regexp_replace(document_id, '\\D', '', 'g'))
       where document_id is not null`
    )
    this.schema.raw(
      `create index inquiries_buyer_phone on inquiries
       (agency_id, reverse(regexp_replace(phone, '\\D', '', 'g')) text_pattern_ops) where phone is not null`
    )
    this.schema.raw(
      'create index inquiries_unerased on inquiries (received_at) where buyer_erased_at is null'
    )
    this.schema.raw(
      "create index deliveries_unemptied on deliveries (created_at) where payload <> '{}'::jsonb"
    )
    this.schema.raw('create index deliveries_message on deliveries (message_id)')
    this.schema.raw(
      "create index app_events_resource on app_events ((payload->'Recurso'->>'href'))"
    )
  }

  async down() {
    this.schema.raw('drop index if exists app_events_resource')
    this.schema.raw('drop index if exists deliveries_message')
    this.schema.raw('drop index if exists deliveries_unemptied')
    this.schema.raw('drop index if exists inquiries_unerased')
    this.schema.raw('drop index if exists inquiries_buyer_phone')
    this.schema.raw('drop index if exists inquiries_buyer_document')
    this.schema.raw('drop index if exists inquiries_buyer_email')
    this.schema.alterTable('inquiries', (table) => {
      table.dropColumn('buyer_erased_at')
    })
  }
}
