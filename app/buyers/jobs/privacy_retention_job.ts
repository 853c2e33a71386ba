import { inject } from '@adonisjs/core'
import logger from '@adonisjs/core/services/logger'
import type { JobHandler } from '#core/jobs/types'
import ApplyRetention from '#buyers/services/privacy/apply_retention'

/** Idempotent: an inquiry already erased is not selected again. */
@inject()
export default class PrivacyRetentionJob implements JobHandler {
  constructor(private retention: ApplyRetention) {}

  async handle() {
    const run = await this.retention.execute()
    // Counts and durations only: no personal data in logs (docs/privacy.md).
    logger.info(
      {
        erased: run.erased,
        batches: run.batches,
        maxBatchMs: Math.round(Math.max(0, ...run.batchMs)),
        // By the server's clock, begin to just before commit: how long a batch's row locks were held.
        maxBatchDbMs: Math.round(Math.max(0, ...run.batchDbMs)),
        batchesDbOver200Ms: run.batchDbMs.filter((ms) => ms > 200).length,
        payloadsEmptied: run.payloadsEmptied,
        exportsPurged: run.exportsPurged,
      },
      'privacy retention'
    )
  }
}
