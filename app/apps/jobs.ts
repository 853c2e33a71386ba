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
]
