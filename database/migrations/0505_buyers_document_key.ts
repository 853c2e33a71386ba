import { BaseSchema } from '@adonisjs/lucid/schema'

/**
 * A buyer's document by its key (docs/design.md §25: documents match by their
 * digits, a CUIT by the DNI inside it): the digits, an 11-digit CUIT's digits
 * 3–10, leading zeros dropped — the expression `InquiryStore.findBuyer` reads,
 * character for character. Built `concurrently` (inquiries is written all the
 * time), so outside a transaction; the session's timeouts are reset at the end.
 * Phones need no new index: `inquiries_buyer_phone` (reversed digits) finds
 * every written form of a national number by its endings.
 */
export default class extends BaseSchema {
  static disableTransactions = true

  async up() {
    this.schema.raw("set lock_timeout = '3s'")
    this.schema.raw("set statement_timeout = '30min'")
    // A build that failed half-way leaves an invalid index of this name behind: start afresh.
    this.schema.raw('drop index concurrently if exists inquiries_buyer_document_key')
    this.schema.raw(
      `create index concurrently inquiries_buyer_document_key on inquiries
       (agency_id, ltrim(case when length(regexp_replace(document_id, '\\D', '', 'g')) = 11
         then substr(regexp_replace(document_id, '\\D', '', 'g'), 3, 8)
         else regexp_replace(document_id, '\\D', '', 'g') end, '0'))
       where document_id is not null`
    )
    this.schema.raw('reset statement_timeout')
    this.schema.raw('reset lock_timeout')
  }

  async down() {
    this.schema.raw("set lock_timeout = '3s'")
    this.schema.raw('drop index concurrently if exists inquiries_buyer_document_key')
    this.schema.raw('reset lock_timeout')
  }
}
