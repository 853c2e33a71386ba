/*
 * One person's data for a privacy request or command (docs/design.md §16,
 * §24, §25): finding the inquiries that name them (the leads module's
 * candidates, decided by matching.ts), exporting them with which identifier
 * matched, and suppressing them — with every copy the buyers module keeps or
 * finds: the buyers' form pages kept for replay (by their marks) and the
 * access exports of the same person.
 */
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import Idempotency from '#core/http/idempotency'
import BuyerData, { type BuyerInquiry } from '#leads/services/buyer_data'
import PrivacyStore from '#buyers/stores/privacy_store'
import {
  coincidence,
  namesSomebody,
  searchKeys,
  type Coincidence,
  type MatchKeys,
} from './matching.js'
import { identifierHmacs } from './subject.js'
import { AuditKey } from './audit_key.js'
import { markNeedles } from './form_marks.js'

export type Match = { inquiry: BuyerInquiry; coincidencia: Coincidence[] }

@inject()
export default class PersonData {
  constructor(
    private buyers: BuyerData,
    private idempotency: Idempotency,
    private store: PrivacyStore,
    private auditKey: AuditKey
  ) {}

  /** The inquiries that name the person (one agency, or every one with null), oldest first. */
  async find(asked: MatchKeys, agencyId: number | null, tx: Tx): Promise<Match[]> {
    if (!namesSomebody(asked)) return []
    const candidates = await this.buyers.find(searchKeys(asked), agencyId, tx)
    const matches: Match[] = []
    for (const { email, phone, documentId, ...inquiry } of candidates) {
      const found = coincidence(asked, { email, phone, documentId })
      if (found.length) matches.push({ inquiry, coincidencia: found })
    }
    return matches
  }

  /** The inquiries as the API shows them, each with `Coincidencia`; other apps' targets as channels. */
  export(matches: Match[], adminMail: string, viewer: number | null) {
    return this.buyers.export(
      matches.map((match) => match.inquiry.id),
      adminMail,
      {
        viewer,
        extra: new Map(
          matches.map((match) => [match.inquiry.id, { Coincidencia: match.coincidencia }])
        ),
      }
    )
  }

  /** HMACs of the identifiers that name the person alone (an export keeps them). */
  identifierHmacs(asked: MatchKeys) {
    return identifierHmacs(asked, this.auditKey.value())
  }

  /**
   * Suppresses the matched inquiries (leads' BuyerData), the buyers' form
   * pages kept for replay that carry the person's e-mail (any case, and as
   * typed) or national phone, and the access exports holding any of those
   * inquiries or naming any of the identifiers at the agency (null: at
   * every agency). All in `tx`.
   */
  async forget(
    matches: Match[],
    asked: MatchKeys,
    scope: { typedEmail: string | null; agencyId: number | null },
    tx: Tx
  ) {
    const ids = matches.map((match) => match.inquiry.id)
    const forgotten = await this.buyers.forget(ids, tx)
    const needles = [...markNeedles(asked), ...(scope.typedEmail ? [scope.typedEmail] : [])]
    if (asked.email) needles.push(asked.email)
    await this.idempotency.forgetContaining([...new Set(needles)], tx)
    const exportsPurged = await this.store.purgeExportsOf(
      { inquiryIds: ids, keys: this.identifierHmacs(asked), agencyId: scope.agencyId },
      tx
    )
    return { ...forgotten, exportsPurged }
  }
}
