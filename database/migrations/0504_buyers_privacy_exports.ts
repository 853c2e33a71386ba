import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * What a suppression needs to reach the access exports of the same person
 * (docs/design.md §24 "A buyer's data leaves every copy"), and the agency's
 * requests listed for every linked app (§25):
 *
 * - `privacy_requests.export_inquiry_ids`: the inquiries an export holds; a
 *   suppression or retention that erases one of them purges the export.
 * - `privacy_requests.export_keys`: HMACs (under APP_KEY) of each identifier
 *   that named the person (e-mail, national phone, document key): a later
 *   suppression naming one of them purges the export, even one that matched
 *   no inquiry. No personal data, like `privacy_audit.subject_hmac`.
 * - The list of an agency's requests, whichever app filed them.
 * - The audit row of a request, to record its matched count when done.
 *
 * Small tables of the buyers module: plain indexes in the transaction.
 */
export default class extends BaseSchema {
  async up() {
    this.schema.raw("set local lock_timeout = '3s'")
    this.schema.raw("set local statement_timeout = '60s'")
    this.schema.alterTable('privacy_requests', (table) => {
      table.specificType('export_inquiry_ids', 'bigint[]').nullable()
      table.specificType('export_keys', 'text[]').nullable()
    })
    this.schema.raw(
      `create index privacy_requests_export_inquiries on privacy_requests using gin (export_inquiry_ids)
       where export is not null`
    )
    this.schema.raw(
      `create index privacy_requests_export_keys on privacy_requests using gin (export_keys)
       where export is not null`
    )
    this.schema.raw(
      'create index privacy_requests_agency on privacy_requests (agency_id, received_at desc, id desc)'
    )
    this.schema.raw(
      'create index privacy_audit_request on privacy_audit (request_id) where request_id is not null'
    )
  }

  async down() {
    this.schema.raw('drop index if exists privacy_audit_request')
    this.schema.raw('drop index if exists privacy_requests_agency')
    this.schema.raw('drop index if exists privacy_requests_export_keys')
    this.schema.raw('drop index if exists privacy_requests_export_inquiries')
    this.schema.alterTable('privacy_requests', (table) => {
      table.dropColumn('export_keys')
      table.dropColumn('export_inquiry_ids')
    })
  }
}
