/*
 * `stock.sync`: one stock sync (docs/design.md §15), by RunSync. Idempotent:
 * rows that have their result are not done again, a finished sync is left
 * alone. While another sync of the agency runs, this one waits its turn: the
 * job fails softly and pg-boss brings it back (the running one also sends it
 * when it ends); a job that waited through all its retries sends a new one.
 * A worker that dies mid-sync runs no catch here: RunSync counts the starts
 * instead, and gives up a sync that never gets further (docs/design.md §25).
 */
import { inject } from '@adonisjs/core'
import type { JobContext, JobHandler } from '#core/jobs/types'
import JobRunner from '#core/jobs/runner'
import { STOCK_SYNC, STOCK_SYNC_SETTINGS, type StockSyncData } from '#listings/queues'
import RunSync from '#listings/services/run_sync'

const RETRIES = STOCK_SYNC_SETTINGS.queue.retryLimit
const RETRY_DELAY = STOCK_SYNC_SETTINGS.queue.retryDelay

export class TurnTaken extends Error {
  constructor(syncId: number) {
    super(`Sync ${syncId} waits for another sync of its agency`)
  }
}

@inject()
export default class StockSyncJob implements JobHandler<StockSyncData> {
  constructor(
    private runSync: RunSync,
    private runner: JobRunner
  ) {}

  async handle({ syncId }: StockSyncData, job: JobContext) {
    try {
      const outcome = await this.runSync.execute(syncId)
      if (outcome === 'waiting') throw new TurnTaken(syncId)
    } catch (error) {
      if (job.retryCount >= RETRIES) {
        // Waiting for the agency's turn through every retry is no failure of this sync (a long
        // sync of the agency is running): it keeps a job coming, so it runs when its turn comes.
        if (error instanceof TurnTaken) {
          await this.runner.send(STOCK_SYNC, { syncId }, { startAfter: RETRY_DELAY })
        } else {
          await this.runSync.giveUp(syncId)
        }
      }
      throw error
    }
  }
}
