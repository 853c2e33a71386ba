/*
 * Leads' metrics for `GET /metrics` (docs/design.md §14), read at scrape
 * time: inquiries received in the last hour and the last 5 minutes, by kind
 * (listing: through an app; catalog: the buyers' site). Zero during business
 * hours is the "intake stopped" alert.
 */
import db from '@adonisjs/lucid/services/db'
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
      const result = await db.rawQuery(`
        select kind,
               count(*) as hour,
               count(*) filter (where received_at > now() - interval '5 minutes') as recent
          from inquiries where received_at > now() - interval '1 hour'
         group by kind`)
      const byKind = new Map(result.rows.map((row: any) => [row.kind, row]))
      return KINDS.flatMap((kind) => {
        const row: any = byKind.get(kind)
        return [
          { name: 'inquiries_received_1h', labels: { kind }, value: Number(row?.hour ?? 0) },
          { name: 'inquiries_received_5m', labels: { kind }, value: Number(row?.recent ?? 0) },
        ]
      })
    },
  },
]
