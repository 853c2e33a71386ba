/*
 * GET/PUT /v3/privacidad/{adminmail} (docs/design.md §16): how many days an
 * agency's inquiries keep their buyer's data (30..3650; default
 * BUYER_DATA_RETENTION_DAYS).
 */
import { inject } from '@adonisjs/core'
import { settings } from '#core/settings'
import PrivacyStore from '#buyers/stores/privacy_store'

export const RETENTION_MIN_DAYS = 30
export const RETENTION_MAX_DAYS = 3650

export type RetentionView = { days: number; isDefault: boolean }

@inject()
export default class RetentionSettings {
  constructor(private store: PrivacyStore) {}

  async read(agencyId: number): Promise<RetentionView> {
    const own = await this.store.retention(agencyId)
    return own === null
      ? { days: settings.buyerDataRetentionDays, isDefault: true }
      : { days: own, isDefault: false }
  }

  async write(agencyId: number, days: number): Promise<RetentionView> {
    await this.store.setRetention(agencyId, days)
    return { days, isDefault: false }
  }
}
