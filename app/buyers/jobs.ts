import type { JobDefinition } from '#core/jobs/types'

export const jobs: JobDefinition[] = [
  {
    // Deletes visitor hashes older than yesterday (they only dedupe the current day).
    name: 'visits.prune-visitors',
    schedule: '17 3 * * *',
    queue: { retryLimit: 3 },
    handler: () => import('#buyers/jobs/prune_visitors_job'),
  },
]
