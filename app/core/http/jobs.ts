/*
 * Core HTTP queues (contributed by app/core/core_provider.ts): the hourly cleanup of
 * idempotency keys past their 24 hours (docs/design.md §14).
 */
import type { JobDefinition } from '#core/jobs/types'

export const IDEMPOTENCY_PRUNE = 'idempotency.prune'

export const jobs: JobDefinition[] = [
  {
    name: IDEMPOTENCY_PRUNE,
    queue: { retryLimit: 0, expireInSeconds: 300 },
    schedule: '17 * * * *',
    handler: () => import('./prune_idempotency_keys_job.js'),
  },
]
