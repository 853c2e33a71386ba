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
    // Two decodes at a time per worker: sharp is CPU-bound (the runner bursts through backlogs).
    work: { batchSize: 2 },
    handler: () => import('#listings/jobs/fetch_photo'),
  },
]
