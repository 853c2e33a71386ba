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
import PrivacyStore from '#buyers/stores/privacy_store'
import { normalise, subjectHmac, type Identifiers, type RequestKind } from './subject.js'
import { namesSomebody } from './matching.js'
import { AuditKey } from './audit_key.js'
import PersonData, { type Match } from './person.js'

/** `no_identifier`: nothing that names a person alone (a phone without area code needs an e-mail or document). */
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
    private person: PersonData,
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
    // The API's rules (matching.ts): an identifier that names somebody; a local phone only beside another.
    const keys = normalise(who)
    if (!namesSomebody(keys)) return fail('no_identifier')
    let agencyId: number | null = null
    if (adminMail) {
      const found = await this.agencies.byAdminMail(adminMail)
      if (found === null) return fail('agency_not_found')
      agencyId = found.id
    }
    const hmac = subjectHmac(keys, this.auditKey.value())
    let mailMessageIds: string[] = []
    const outcome = await this.unitOfWork.run(async (tx) => {
      const found = await this.person.find(keys, agencyId, tx)
      const byAgency = new Map<number, Match[]>()
      for (const match of found) {
        const agency = match.inquiry.agencyId
        if (!byAgency.has(agency)) byAgency.set(agency, [])
        byAgency.get(agency)!.push(match)
      }
      const result: SupportOutcome = { matched: found.length, agencies: [] }
      for (const [agency, matches] of byAgency) {
        const admin = await this.agencies.admin(agency, tx)
        if (kind === 'access') {
          // The operator's export: every app's targets (no requesting app to hide them from).
          result.agencies.push({
            adminMail: admin?.email ?? '',
            consultas: await this.person.export(matches, admin?.email ?? '', null),
          })
        } else {
          const forgotten = await this.person.forget(
            matches,
            keys,
            { typedEmail: who.email ?? null, agencyId: agency },
            tx
          )
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
            matched: matches.length,
          },
          tx
        )
      }
      // Nothing matched: the kept form pages and the exports naming the person still go.
      if (kind === 'erasure' && !byAgency.size)
        await this.person.forget([], keys, { typedEmail: who.email ?? null, agencyId }, tx)
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
