/*
 * Core queues of outbound deliveries (contributed by app/core/core_provider.ts).
 */
import type { JobDefinition } from '#core/jobs/types'

export const DELIVERIES_SWEEP = 'deliveries.sweep'

export const jobs: JobDefinition[] = [
  {
    // Re-queues open deliveries without a live job, so none stays pending forever (docs/design.md §13).
    name: DELIVERIES_SWEEP,
    queue: { retryLimit: 0, expireInSeconds: 60 },
    schedule: '* * * * *',
    handler: () => import('./sweep_job.js'),
  },
]
