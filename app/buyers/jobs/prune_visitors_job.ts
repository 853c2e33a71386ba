import type { JobHandler } from '#core/jobs/types'
import PruneVisitors from '#buyers/services/prune_visitors'

/** Idempotent: deleting already-deleted rows is a no-op. */
export default class PruneVisitorsJob implements JobHandler {
  async handle() {
    await new PruneVisitors().execute()
  }
}
