/*
 * Queues of the apps module.
 */
import type { JobDefinition } from '#core/jobs/types'
import { deliveryQueue, deliveryWork } from '#core/outbound/deliveries'

export const APP_WEBHOOK_QUEUE = 'apps.webhook'

export const jobs: JobDefinition[] = [
  {
    name: APP_WEBHOOK_QUEUE,
    queue: deliveryQueue,
    work: deliveryWork,
    handler: () => import('#apps/jobs/app_webhook_job'),
  },
  {
    // The history keeps 30 days (docs/design.md §14); older events are deleted.
    name: 'apps.events-prune',
    schedule: '23 * * * *',
    queue: { retryLimit: 3 },
    handler: () => import('#apps/jobs/prune_events_job'),
  },
]
