/*
 * `stock.sync`: one stock sync (docs/design.md §15), by RunSync. Idempotent:
 * rows that have their result are not done again, a finished sync is left
 * alone. While another sync of the agency runs, this one waits its turn: the
 * job fails softly and pg-boss brings it back (the running one also sends it
 * when it ends).
 */
import { inject } from '@adonisjs/core'
import type { JobContext, JobHandler } from '#core/jobs/types'
import { membersOf } from '#core/http/middleware/unknown_members_middleware'
import { jobs, STOCK_SYNC, type StockSyncData } from '#listings/jobs'
import { syncRowWording } from '#listings/http/problems'
import RunSync from '#listings/services/run_sync'

const RETRIES = jobs.find((job) => job.name === STOCK_SYNC)!.queue!.retryLimit!

export class TurnTaken extends Error {
  constructor(syncId: number) {
    super(`Sync ${syncId} waits for another sync of its agency`)
  }
}

@inject()
export default class StockSyncJob implements JobHandler<StockSyncData> {
  constructor(private runSync: RunSync) {}

  async handle({ syncId }: StockSyncData, job: JobContext) {
    const wording = syncRowWording(await membersOf('POST /v3/publicaciones/{adminmail}'))
    try {
      const outcome = await this.runSync.execute(syncId, wording)
      if (outcome === 'waiting') throw new TurnTaken(syncId)
    } catch (error) {
      if (job.retryCount >= RETRIES) await this.runSync.giveUp(syncId)
      throw error
    }
  }
}
