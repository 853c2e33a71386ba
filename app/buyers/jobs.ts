import type { JobDefinition } from '#core/jobs/types'
import { PRIVACY_REQUEST_QUEUE } from '#buyers/services/privacy/file_privacy_request'

export const jobs: JobDefinition[] = [
  {
    // Deletes visitor hashes older than yesterday (they only dedupe the current day).
    name: 'visits.prune-visitors',
    schedule: '17 3 * * *',
    queue: { retryLimit: 3 },
    handler: () => import('#buyers/jobs/prune_visitors_job'),
  },
  {
    // A privacy request's work (docs/design.md §16), sent in the transaction that records it.
    name: PRIVACY_REQUEST_QUEUE,
    queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
    handler: () => import('#buyers/jobs/privacy_request_job'),
  },
  {
    // Daily: inquiries past their agency's retention lose the buyer's data, in bounded batches.
    name: 'privacy.retention',
    schedule: '41 4 * * *',
    queue: { retryLimit: 3 },
    handler: () => import('#buyers/jobs/privacy_retention_job'),
  },
]
