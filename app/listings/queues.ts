/*
 * Queue names, payloads and settings of the listings module (docs/design.md §8):
 * a leaf that imports nothing of the module, so a service that sends a job and
 * the job that runs it both read it without a circle (the handlers are listed
 * in jobs.ts).
 */
import type { JobDefinition } from '#core/jobs/types'

export const PHOTOS_FETCH = 'photos.fetch'

export type PhotoFetchData = { photoId: number }

export const STOCK_SYNC = 'stock.sync'

export type StockSyncData = { syncId: number }

type Settings = Pick<JobDefinition<any>, 'queue' | 'work'>

/** Network failures retry (≈ 5–10 s, 10–20 s, 20–40 s); a photo that can never work is rejected at once. */
export const PHOTOS_FETCH_SETTINGS = {
  // A worker that dies mid-download stops heartbeating: the job runs again within ≈ 20–25 s.
  queue: {
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    heartbeatSeconds: 10,
  },
  // Two decodes at a time per worker: sharp is CPU-bound. Two lanes of one job
  // each, so a fast photo does not wait for a slow one of the same batch.
  work: { batchSize: 1, localConcurrency: 2 },
} satisfies Settings

/**
 * A sync of another of the agency's syncs still running waits its turn: the run that
 * finishes sends the next one's job at once, and this retry covers a worker that died
 * holding the turn (its lease lapses in SYNC_LEASE_SECONDS, 60 s). A dead worker's own job comes
 * back when its heartbeat stops and resumes at the first row without a result; one that
 * dies at the same row at every start is given up at the next (RunSync, MAX_STARTS).
 */
export const STOCK_SYNC_SETTINGS = {
  queue: {
    retryLimit: 100,
    retryDelay: 10,
    retryBackoff: false,
    expireInSeconds: 3600,
    heartbeatSeconds: 10,
  },
  work: { batchSize: 1, localConcurrency: 1 },
} satisfies Settings
