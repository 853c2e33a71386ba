/*
 * The `privacy.request` job's work (docs/design.md §16, §24, §25): matches
 * the person among the agency's inquiries (matching.ts) and either exports
 * what is held (access; kept 30 days, each inquiry with the identifiers it
 * matched, other apps' targets as channels) or suppresses every copy
 * (suppression: PersonData, then the mail files once committed), purging the
 * access exports of the same person. Records the matched count in the
 * request's audit row. Idempotent: a request already done is left alone
 * (pg-boss is at-least-once); the request row is locked while it is worked on.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import { UnitOfWork } from '#core/database/unit_of_work'
import { MailFiles } from '#core/mail/mail_files'
import { fail, ok, type Result } from '#core/result'
import AgencyDirectory from '#agencies/services/agency_directory'
import PrivacyStore from '#buyers/stores/privacy_store'
import { normalise } from './subject.js'
import PersonData from './person.js'

/** How long an access export is kept (docs/design.md §16). */
export const EXPORT_DAYS = 30

export type FulfilFailure = 'request_not_found'

@inject()
export default class FulfilPrivacyRequest {
  constructor(
    private store: PrivacyStore,
    private person: PersonData,
    private agencies: AgencyDirectory,
    private unitOfWork: UnitOfWork,
    private mailFiles: MailFiles
  ) {}

  async execute(
    requestId: string
  ): Promise<Result<{ matched: number; already: boolean }, FulfilFailure>> {
    let mailMessageIds: string[] = []
    const outcome = await this.unitOfWork.run(async (tx) => {
      const request = await this.store.request({ id: requestId }, tx, { forUpdate: true })
      if (!request) return null
      if (request.state === 'done' || !request.identifiers)
        return { matched: request.matched ?? 0, already: true }
      const asked = normalise(request.identifiers)
      const matches = await this.person.find(asked, request.agencyId, tx)
      if (request.kind === 'access') {
        const admin = await this.agencies.admin(request.agencyId, tx)
        const consultas = await this.person.export(matches, admin?.email ?? '', request.appId)
        const typed = request.identifiers
        await this.store.finish(
          request.id,
          {
            matched: matches.length,
            export: {
              Interesado: {
                Email: typed.email ?? null,
                Telefono: typed.phone ?? null,
                DocIdentidad: typed.document ?? null,
              },
              Consultas: consultas,
            },
            exportExpiresAt: DateTime.now().plus({ days: EXPORT_DAYS }),
            exportInquiryIds: matches.map((match) => match.inquiry.id),
            exportKeys: this.person.identifierHmacs(asked),
          },
          tx
        )
      } else {
        const forgotten = await this.person.forget(
          matches,
          asked,
          { typedEmail: request.identifiers.email ?? null, agencyId: request.agencyId },
          tx
        )
        mailMessageIds = forgotten.mailMessageIds
        await this.store.finish(request.id, { matched: matches.length }, tx)
      }
      await this.store.auditMatched(request.id, matches.length, tx)
      return { matched: matches.length, already: false }
    })
    if (!outcome) return fail('request_not_found')
    // Files are not transactional: deleted once the suppression is committed.
    if (mailMessageIds.length) await this.mailFiles.forget(mailMessageIds)
    return ok(outcome)
  }
}
