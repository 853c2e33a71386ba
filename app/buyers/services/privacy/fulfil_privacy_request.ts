/*
 * The `privacy.request` job's work (docs/design.md §16): matches the person
 * among the agency's inquiries and either exports what is held (access; kept
 * 30 days) or suppresses every copy (suppression; the leads module's
 * BuyerData, then the mail files once committed). Idempotent: a request
 * already done is left alone (pg-boss is at-least-once); the request row is
 * locked while it is worked on.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import { UnitOfWork } from '#core/database/unit_of_work'
import { MailFiles } from '#core/mail/mail_files'
import { fail, ok, type Result } from '#core/result'
import AgencyDirectory from '#agencies/services/agency_directory'
import BuyerData from '#leads/services/buyer_data'
import PrivacyStore from '#buyers/stores/privacy_store'
import { normalise } from './subject.js'

/** How long an access export is kept (docs/design.md §16). */
export const EXPORT_DAYS = 30

export type FulfilFailure = 'request_not_found'

@inject()
export default class FulfilPrivacyRequest {
  constructor(
    private store: PrivacyStore,
    private buyers: BuyerData,
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
      const keys = normalise(request.identifiers)
      const found = await this.buyers.find(keys, request.agencyId, tx)
      const ids = found.map((inquiry) => inquiry.id)
      if (request.kind === 'access') {
        const admin = await this.agencies.admin(request.agencyId, tx)
        const consultas = await this.buyers.export(ids, admin?.email ?? '')
        const asked = request.identifiers
        await this.store.finish(
          request.id,
          {
            matched: ids.length,
            export: {
              Interesado: {
                Email: asked.email ?? null,
                Telefono: asked.phone ?? null,
                DocIdentidad: asked.document ?? null,
              },
              Consultas: consultas,
            },
            exportExpiresAt: DateTime.now().plus({ days: EXPORT_DAYS }),
          },
          tx
        )
      } else {
        const forgotten = await this.buyers.forget(ids, tx)
        await this.buyers.forgetMentions(keys, tx, request.identifiers.email)
        mailMessageIds = forgotten.mailMessageIds
        await this.store.finish(request.id, { matched: ids.length }, tx)
      }
      return { matched: ids.length, already: false }
    })
    if (!outcome) return fail('request_not_found')
    // Files are not transactional: deleted once the suppression is committed.
    if (mailMessageIds.length) await this.mailFiles.forget(mailMessageIds)
    return ok(outcome)
  }
}
