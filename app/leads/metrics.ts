/*
 * Leads' metrics for `GET /metrics` (docs/design.md §14), read at scrape
 * time: inquiries received in the last hour and the last 5 minutes, by kind
 * (listing: through an app; catalog: the buyers' site). Zero during business
 * hours is the "intake stopped" alert.
 */
import app from '@adonisjs/core/services/app'
import type { ScrapeSet } from '#core/metrics/types'

const KINDS = ['listing', 'catalog']

export const metrics: ScrapeSet[] = [
  {
    name: 'inquiries',
    metrics: [
      {
        name: 'inquiries_received_1h',
        help: 'Inquiries received in the last hour, by kind.',
        labelNames: ['kind'],
      },
      {
        name: 'inquiries_received_5m',
        help: 'Inquiries received in the last 5 minutes, by kind.',
        labelNames: ['kind'],
      },
    ],
    async collect() {
      const { default: InquiryStore } = await import('#leads/stores/inquiry_store')
      const store = await app.container.make(InquiryStore)
      const received = await store.receivedLately()
      const byKind = new Map(received.map((row) => [row.kind, row]))
      return KINDS.flatMap((kind) => {
        const row = byKind.get(kind)
        return [
          { name: 'inquiries_received_1h', labels: { kind }, value: row?.hour ?? 0 },
          { name: 'inquiries_received_5m', labels: { kind }, value: row?.recent ?? 0 },
        ]
      })
    },
  },
]
