/*
 * `ace privacy:export|privacy:forget` (docs/design.md §16): the support path,
 * for one agency or (without --agency) every agency. Each run leaves one audit
 * row per agency touched (or one with no agency when nothing matched), with
 * an HMAC of the identifiers under APP_KEY and no personal data.
 */
import { inject } from '@adonisjs/core'
import { UnitOfWork } from '#core/database/unit_of_work'
import { MailFiles } from '#core/mail/mail_files'
import { fail, ok, type Result } from '#core/result'
import AgencyDirectory from '#agencies/services/agency_directory'
import BuyerData, { PHONE_MIN_DIGITS } from '#leads/services/buyer_data'
import PrivacyStore from '#buyers/stores/privacy_store'
import {
  DOCUMENT_MIN_DIGITS,
  normalise,
  subjectHmac,
  type Identifiers,
  type RequestKind,
} from './subject.js'
import { AuditKey } from './audit_key.js'

export type SupportFailure = 'agency_not_found' | 'no_identifier'

export type SupportOutcome = {
  matched: number
  /** Per agency (admin mail): its inquiries, as the API shows them (export only). */
  agencies: { adminMail: string; consultas: unknown[] }[]
}

@inject()
export default class SupportRequest {
  constructor(
    private store: PrivacyStore,
    private buyers: BuyerData,
    private agencies: AgencyDirectory,
    private unitOfWork: UnitOfWork,
    private mailFiles: MailFiles,
    private auditKey: AuditKey
  ) {}

  async execute(
    kind: RequestKind,
    who: Identifiers,
    adminMail?: string
  ): Promise<Result<SupportOutcome, SupportFailure>> {
    const keys = normalise(who)
    // The same floor as the API's validator: a phone of at least 8 digits, a document of at least 6.
    if ((keys.phoneDigits?.length ?? 0) < PHONE_MIN_DIGITS) keys.phoneDigits = null
    if ((keys.documentDigits?.length ?? 0) < DOCUMENT_MIN_DIGITS) keys.documentDigits = null
    if (!keys.email && !keys.phoneDigits && !keys.documentDigits) return fail('no_identifier')
    let agencyId: number | null = null
    if (adminMail) {
      const found = await this.agencies.byAdminMail(adminMail)
      if (found === null) return fail('agency_not_found')
      agencyId = found.id
    }
    const hmac = subjectHmac(keys, this.auditKey.value())
    let mailMessageIds: string[] = []
    const outcome = await this.unitOfWork.run(async (tx) => {
      const found = await this.buyers.find(keys, agencyId, tx)
      const byAgency = new Map<number, number[]>()
      for (const inquiry of found) {
        if (!byAgency.has(inquiry.agencyId)) byAgency.set(inquiry.agencyId, [])
        byAgency.get(inquiry.agencyId)!.push(inquiry.id)
      }
      const result: SupportOutcome = { matched: found.length, agencies: [] }
      for (const [agency, ids] of byAgency) {
        const admin = await this.agencies.admin(agency, tx)
        if (kind === 'access') {
          result.agencies.push({
            adminMail: admin?.email ?? '',
            consultas: await this.buyers.export(ids, admin?.email ?? ''),
          })
        } else {
          const forgotten = await this.buyers.forget(ids, tx)
          mailMessageIds = mailMessageIds.concat(forgotten.mailMessageIds)
          result.agencies.push({ adminMail: admin?.email ?? '', consultas: [] })
        }
        await this.store.audit(
          {
            source: 'command',
            kind,
            agencyId: agency,
            appId: null,
            requestId: null,
            subjectHmac: hmac,
            matched: ids.length,
          },
          tx
        )
      }
      if (kind === 'erasure') await this.buyers.forgetMentions(keys, tx, who.email)
      if (!byAgency.size) {
        await this.store.audit(
          {
            source: 'command',
            kind,
            agencyId,
            appId: null,
            requestId: null,
            subjectHmac: hmac,
            matched: 0,
          },
          tx
        )
      }
      return result
    })
    if (mailMessageIds.length) await this.mailFiles.forget(mailMessageIds)
    return ok(outcome)
  }
}
