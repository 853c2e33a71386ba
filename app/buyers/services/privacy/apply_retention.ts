/*
 * The daily `privacy.retention` job (docs/design.md §16, art. 4.7 of Ley
 * 25.326): inquiries older than their agency's retention lose their buyer's
 * data, in bounded batches — each batch its own short transaction (its row
 * locks last as long as it does; docs/performance.md has the measured
 * figures) — then lead delivery payloads whose resend window and retries are
 * over are emptied, and access exports past 30 days purged. An access export
 * holding an inquiry a batch erased is purged with it (docs/design.md §24).
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import { UnitOfWork } from '#core/database/unit_of_work'
import { DeliveryService } from '#core/outbound/deliveries'
import { MailFiles } from '#core/mail/mail_files'
import { settings } from '#core/settings'
import BuyerData from '#leads/services/buyer_data'
import PrivacyStore from '#buyers/stores/privacy_store'

/** Inquiries per batch: each batch's transaction stays well under 200 ms (docs/performance.md). */
export const RETENTION_BATCH = 50

/** A delivery settles within the retry schedule (about 42 h); a margin beyond the resend window. */
const SETTLE_MARGIN_DAYS = 3

export type RetentionRun = {
  erased: number
  batches: number
  /** Each batch's transaction as this process saw it, in milliseconds (begin to commit answered). */
  batchMs: number[]
  /** Each batch's transaction by the server's clock, begin to just before commit: how long its row locks were held. */
  batchDbMs: number[]
  payloadsEmptied: number
  exportsPurged: number
}

@inject()
export default class ApplyRetention {
  constructor(
    private store: PrivacyStore,
    private buyers: BuyerData,
    private deliveries: DeliveryService,
    private unitOfWork: UnitOfWork,
    private mailFiles: MailFiles
  ) {}

  async execute(
    options: { now?: DateTime; batch?: number; maxBatches?: number } = {}
  ): Promise<RetentionRun> {
    const now = options.now ?? DateTime.now()
    const batch = options.batch ?? RETENTION_BATCH
    const cutoff = (days: number) => now.minus({ days }).toJSDate()
    const retentions = await this.store.retentions()
    const own = retentions.map((entry) => ({
      agencyId: entry.agencyId,
      cutoff: cutoff(entry.days),
    }))
    const run: RetentionRun = {
      erased: 0,
      batches: 0,
      batchMs: [],
      batchDbMs: [],
      payloadsEmptied: 0,
      exportsPurged: 0,
    }
    for (;;) {
      if (options.maxBatches !== undefined && run.batches >= options.maxBatches) break
      const ids = await this.buyers.expired(cutoff(settings.buyerDataRetentionDays), own, batch)
      if (!ids.length) break
      const started = performance.now()
      const outcome = await this.unitOfWork.run(async (tx) => {
        const forgotten = await this.buyers.forget(ids, tx)
        const purged = await this.store.purgeExportsOf(
          { inquiryIds: forgotten.erased.map((inquiry) => inquiry.id), keys: [] },
          tx
        )
        await this.store.audit(
          {
            source: 'retention',
            kind: 'erasure',
            agencyId: null,
            appId: null,
            requestId: null,
            subjectHmac: null,
            matched: forgotten.erased.length,
          },
          tx
        )
        run.batchDbMs.push(await this.store.transactionMs(tx))
        return { ...forgotten, purged }
      })
      run.batchMs.push(performance.now() - started)
      run.batches++
      run.erased += outcome.erased.length
      run.exportsPurged += outcome.purged
      if (outcome.mailMessageIds.length) await this.mailFiles.forget(outcome.mailMessageIds)
      if (ids.length < batch) break
    }
    run.payloadsEmptied = await this.deliveries.emptySettled(
      'inquiry',
      now.minus({ days: settings.resendWindowDays + SETTLE_MARGIN_DAYS }).toJSDate()
    )
    run.exportsPurged += await this.store.purgeExports()
    return run
  }
}
