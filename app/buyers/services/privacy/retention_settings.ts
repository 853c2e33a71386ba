/*
 * GET/PUT /v3/privacidad/{adminmail} (docs/design.md §16, §25): how many days
 * an agency's inquiries keep their buyer's data (30..3650; default
 * BUYER_DATA_RETENTION_DAYS). Every linked app reads it; only the app that
 * invited the agency (its first link) changes it.
 */
import { inject } from '@adonisjs/core'
import { fail, ok, type Result } from '#core/result'
import { settings } from '#core/settings'
import AgencyDirectory from '#agencies/services/agency_directory'
import PrivacyStore from '#buyers/stores/privacy_store'

export const RETENTION_MIN_DAYS = 30
export const RETENTION_MAX_DAYS = 3650

/** `editable`: whether the app reading it may change it. */
export type RetentionView = { days: number; isDefault: boolean; editable: boolean }

export type RetentionFailure = 'not_inviting_app'

@inject()
export default class RetentionSettings {
  constructor(
    private store: PrivacyStore,
    private agencies: AgencyDirectory
  ) {}

  async read(agencyId: number, appId: number): Promise<RetentionView> {
    const [own, inviting] = await Promise.all([
      this.store.retention(agencyId),
      this.agencies.invitingApp(agencyId),
    ])
    const editable = inviting === appId
    return own === null
      ? { days: settings.buyerDataRetentionDays, isDefault: true, editable }
      : { days: own, isDefault: false, editable }
  }

  async write(
    agencyId: number,
    appId: number,
    days: number
  ): Promise<Result<RetentionView, RetentionFailure>> {
    if ((await this.agencies.invitingApp(agencyId)) !== appId) return fail('not_inviting_app')
    await this.store.setRetention(agencyId, days)
    return ok({ days, isDefault: false, editable: true })
  }
}
