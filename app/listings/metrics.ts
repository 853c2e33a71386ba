/*
 * Listings' metrics for `GET /metrics` (docs/design.md §14), read at scrape
 * time: photos waiting for the download job, and the outcomes of the last
 * 24 hours (a rising share of rejections means a broken feed or storage).
 */
import app from '@adonisjs/core/services/app'
import type { ScrapeSet } from '#core/metrics/types'
import ListingPhotoStore from '#listings/stores/listing_photo_store'

export const metrics: ScrapeSet[] = [
  {
    name: 'listing_photos',
    metrics: [
      { name: 'listing_photos_pending', help: 'Photos not yet downloaded and checked.' },
      {
        name: 'listing_photos_settled_24h',
        help: 'Photos settled in the last 24 hours by outcome (ready, rejected).',
        labelNames: ['outcome'],
      },
    ],
    async collect() {
      const photos = await app.container.make(ListingPhotoStore)
      let pending = 0
      const settled = { ready: 0, rejected: 0 } as Record<string, number>
      for (const row of await photos.recentStates()) {
        if (row.state === 'pending') pending = row.n
        else settled[row.state] = row.n
      }
      return [
        { name: 'listing_photos_pending', value: pending },
        ...Object.entries(settled).map(([outcome, value]) => ({
          name: 'listing_photos_settled_24h',
          labels: { outcome },
          value,
        })),
      ]
    },
  },
]
