import { inject } from '@adonisjs/core'
import type { JobHandler } from '#core/jobs/types'
import EventHistory from '#apps/services/event_history'

/** Idempotent: deleting already-deleted rows is a no-op. */
@inject()
export default class PruneEventsJob implements JobHandler {
  constructor(private history: EventHistory) {}

  async handle() {
    await this.history.prune()
  }
}
