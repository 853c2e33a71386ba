/*
 * Queues of the listings module (DESIGN.md §8).
 */
import type { JobDefinition } from '#core/jobs/types'

export const PHOTOS_FETCH = 'photos.fetch'

export type PhotoFetchData = { photoId: number }

export const jobs: JobDefinition<PhotoFetchData>[] = [
  {
    name: PHOTOS_FETCH,
    // Network failures retry (≈ 10 s, 20 s, 40 s); a photo that can never work is rejected at once.
    queue: { retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: 120 },
    // A full batch is followed by an immediate fetch (burst): with batch size 1 a worker would
    // otherwise sleep until the next NOTIFY (or pg-boss's 30 s backstop) with photos still queued.
    work: { batchSize: 2, localConcurrency: 2, pollingIntervalSeconds: 2, burstWhenBatchFull: true } as JobDefinition['work'],
    handler: () => import('#listings/jobs/fetch_photo'),
  },
]
