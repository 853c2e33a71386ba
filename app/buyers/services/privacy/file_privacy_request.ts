/*
 * POST /v3/privacidad/{adminmail}/solicitudes (docs/design.md §16): records
 * the request with its legal due date and masked identifiers, audits it (an
 * HMAC, no personal data) and queues the work, in one transaction: the
 * `privacy.request` job matches the person and does the access or suppression.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import { UnitOfWork } from '#core/database/unit_of_work'
import JobRunner from '#core/jobs/runner'
import { ok, type Ok } from '#core/result'
import PrivacyStore, { type PrivacyRequestRow } from '#buyers/stores/privacy_store'
import {
  dueDate,
  masked,
  normalise,
  subjectHmac,
  type Identifiers,
  type RequestKind,
} from './subject.js'
import { AuditKey } from './audit_key.js'

export const PRIVACY_REQUEST_QUEUE = 'privacy.request'

export type PrivacyRequestJob = { requestId: string }

export type FileRequestInput = {
  appId: number
  agencyId: number
  kind: RequestKind
  identifiers: Identifiers
  /** Reception time (tests); default now. */
  now?: DateTime
}

@inject()
export default class FilePrivacyRequest {
  constructor(
    private store: PrivacyStore,
    private unitOfWork: UnitOfWork,
    private runner: JobRunner,
    private auditKey: AuditKey
  ) {}

  async execute(input: FileRequestInput): Promise<Ok<PrivacyRequestRow>> {
    const received = input.now ?? DateTime.now()
    const request = await this.unitOfWork.run(async (tx) => {
      const row = await this.store.insertRequest(
        {
          agencyId: input.agencyId,
          appId: input.appId,
          kind: input.kind,
          receivedAt: received,
          dueAt: dueDate(input.kind, received),
          identifiers: input.identifiers,
          masked: masked(input.identifiers),
        },
        tx
      )
      await this.store.audit(
        {
          source: 'request',
          kind: input.kind,
          agencyId: input.agencyId,
          appId: input.appId,
          requestId: row.id,
          subjectHmac: subjectHmac(normalise(input.identifiers), this.auditKey.value()),
          matched: 0,
        },
        tx
      )
      await this.runner.send(
        PRIVACY_REQUEST_QUEUE,
        { requestId: row.id } satisfies PrivacyRequestJob,
        { trx: tx }
      )
      return row
    })
    return ok(request)
  }
}
