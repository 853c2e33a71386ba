/*
 * The listings module's jobs (docs/design.md §8): each queue's handler, loaded
 * when its first job runs. Names and settings live in the leaf queues.ts, which
 * the services that send these jobs import instead of this table.
 */
import type { JobDefinition } from '#core/jobs/types'
import { PHOTOS_FETCH, PHOTOS_FETCH_SETTINGS, STOCK_SYNC, STOCK_SYNC_SETTINGS } from './queues.js'

export const jobs: JobDefinition<any>[] = [
  {
    name: PHOTOS_FETCH,
    ...PHOTOS_FETCH_SETTINGS,
    handler: () => import('#listings/jobs/fetch_photo'),
  },
  {
    name: STOCK_SYNC,
    ...STOCK_SYNC_SETTINGS,
    handler: () => import('#listings/jobs/stock_sync'),
  },
]
