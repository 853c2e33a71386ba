import type { JobHandler } from '#core/jobs/types'
import EventHistory from '#apps/services/event_history'

/** Idempotent: deleting already-deleted rows is a no-op. */
export default class PruneEventsJob implements JobHandler {
  async handle() {
    await new EventHistory().prune()
  }
}
