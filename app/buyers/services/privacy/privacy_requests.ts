/*
 * Reading privacy requests (docs/design.md §16, §25): one request, a page of
 * them, an access request's export. Requests are the agency's: every app
 * linked to it lists and reads them all; the export (built with the filing
 * app's view of the targets) is the filing app's only. Another agency finds
 * nothing.
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import PrivacyStore, { type PrivacyRequestRow } from '#buyers/stores/privacy_store'

export type PrivacyReadFailure =
  | 'request_not_found'
  | 'not_an_access_request'
  | 'export_pending'
  | 'export_purged'
  | 'export_of_another_app'

/** Who reads: the agency, and the app asking (for the export). */
export type RequestReader = { agencyId: number; appId: number }

export const REQUESTS_PER_PAGE = 100

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

@inject()
export default class PrivacyRequests {
  constructor(private store: PrivacyStore) {}

  async one(
    reader: RequestReader,
    id: string
  ): Promise<Result<PrivacyRequestRow, PrivacyReadFailure>> {
    if (!UUID.test(id)) return fail('request_not_found')
    const request = await this.store.request({ id, agencyId: reader.agencyId })
    return request ? ok(request) : fail('request_not_found')
  }

  async page(reader: RequestReader, page: number) {
    const { requests, total } = await this.store.page(reader.agencyId, page, REQUESTS_PER_PAGE)
    return { requests, total, page, perPage: REQUESTS_PER_PAGE }
  }

  /**
   * The export of an access request: another app's → 403, pending → 409,
   * purged (30 days, or a suppression of the same person since) → 410.
   */
  async export(
    reader: RequestReader,
    id: string
  ): Promise<Result<{ request: PrivacyRequestRow; data: unknown }, PrivacyReadFailure>> {
    const found = await this.one(reader, id)
    if (!found.ok) return found
    const request = found.value
    if (request.kind !== 'access') return fail('not_an_access_request')
    if (request.appId !== reader.appId) return fail('export_of_another_app')
    if (request.state !== 'done') return fail('export_pending')
    const data = await this.store.exportOf(request.id)
    if (data === null) return fail('export_purged')
    return ok({ request, data })
  }
}
