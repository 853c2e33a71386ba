/*
 * Reading privacy requests (docs/design.md §16): one request, a page of them,
 * an access request's export. A request is the filing app's at that agency:
 * another app, or another agency, finds nothing.
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import PrivacyStore, { type PrivacyRequestRow } from '#buyers/stores/privacy_store'

export type PrivacyReadFailure =
  'request_not_found' | 'not_an_access_request' | 'export_pending' | 'export_purged'

export type RequestOwner = { agencyId: number; appId: number }

export const REQUESTS_PER_PAGE = 100

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

@inject()
export default class PrivacyRequests {
  constructor(private store: PrivacyStore) {}

  async one(
    owner: RequestOwner,
    id: string
  ): Promise<Result<PrivacyRequestRow, PrivacyReadFailure>> {
    if (!UUID.test(id)) return fail('request_not_found')
    const request = await this.store.request({ id, ...owner })
    return request ? ok(request) : fail('request_not_found')
  }

  async page(owner: RequestOwner, page: number) {
    const { requests, total } = await this.store.page(
      owner.agencyId,
      owner.appId,
      page,
      REQUESTS_PER_PAGE
    )
    return { requests, total, page, perPage: REQUESTS_PER_PAGE }
  }

  /** The export of an access request: 409 while pending, 410 once purged (30 days). */
  async export(
    owner: RequestOwner,
    id: string
  ): Promise<Result<{ request: PrivacyRequestRow; data: unknown }, PrivacyReadFailure>> {
    const found = await this.one(owner, id)
    if (!found.ok) return found
    const request = found.value
    if (request.kind !== 'access') return fail('not_an_access_request')
    if (request.state !== 'done') return fail('export_pending')
    const data = await this.store.exportOf(request.id)
    if (data === null) return fail('export_purged')
    return ok({ request, data })
  }
}
