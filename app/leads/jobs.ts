/*
 * Queues of the leads module: one delivery queue per notification channel
 * (DESIGN.md §8; LISTEN/NOTIFY wakes the workers) and the cron job that
 * closes resend windows.
 */
import { deliveryQueue, deliveryWork } from '#core/outbound/deliveries'
import type { JobDefinition } from '#core/jobs/types'

// With LISTEN/NOTIFY on, pg-boss polls only every 30 s by default: a retry due
// later (startAfter) would wait that long, so poll each second as the fallback.
const work = { ...deliveryWork, notifyPollingIntervalSeconds: 1 }
const delivery = { queue: { ...deliveryQueue, notify: true }, work }

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
