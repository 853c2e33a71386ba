/*
 * Queues of the listings module (docs/design.md §8).
 */
import type { JobDefinition } from '#core/jobs/types'

export const PHOTOS_FETCH = 'photos.fetch'

export type PhotoFetchData = { photoId: number }

export const jobs: JobDefinition<PhotoFetchData>[] = [
  {
    name: PHOTOS_FETCH,
    // Network failures retry (≈ 5–10 s, 10–20 s, 20–40 s); a photo that can never work is rejected at once.
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
    handler: () => import('#listings/jobs/fetch_photo'),
  },
]
