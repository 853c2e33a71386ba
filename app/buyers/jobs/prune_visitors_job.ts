import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import PruneVisitors from '#buyers/services/prune_visitors'

/** Idempotent: deleting already-deleted rows is a no-op. */
@inject()
export default class PruneVisitorsJob implements JobHandler {
  constructor(private prune: PruneVisitors) {}

  async handle() {
    await this.prune.execute()
  }
}
