/*
 * Queues of the leads module: one delivery queue per notification channel
 * (docs/design.md §8; LISTEN/NOTIFY wakes the workers) and the cron job that
 * closes resend windows.
 */
import { deliveryQueue, deliveryWork } from '#core/outbound/deliveries'
import type { JobDefinition } from '#core/jobs/types'

// deliveryWork polls each second as the NOTIFY fallback, so retries due later are picked up on time.
const delivery = { queue: { ...deliveryQueue, notify: true }, work: deliveryWork }

export const jobs: JobDefinition[] = [
  { name: 'leads.webhook', ...delivery, handler: () => import('./jobs/webhook_job.js') },
  { name: 'leads.adf-hook', ...delivery, handler: () => import('./jobs/adf_hook_job.js') },
  { name: 'leads.adf-mail', ...delivery, handler: () => import('./jobs/adf_mail_job.js') },
  { name: 'leads.html-mail', ...delivery, handler: () => import('./jobs/html_mail_job.js') },
  {
    name: 'leads.expire-resend',
    queue: { retryLimit: 2 },
    schedule: '17 * * * *',
    handler: () => import('./jobs/expire_resend_job.js'),
  },
]
