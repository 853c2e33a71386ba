/*
 * The counts behind core's scrape-time metrics (app/core/metrics/core_sets.ts):
 * pg-boss's queues and the outbound deliveries. Written-out SQL: aggregates
 * with `filter` over pg-boss's own schema, read once per scrape.
 */
import db from '@adonisjs/lucid/services/db'

export type QueueCounts = {
  name: string
  queued: number
  deferred: number
  active: number
  /** Seconds the oldest due job has waited (0 when none waits). */
  oldest: number
}

export type DeliveryCount = { channel: string; status: string; count: number }

export default class MetricsStore {
  async queues(): Promise<QueueCounts[]> {
    const result = await db.rawQuery(`
      select q.name,
             count(j.id) filter (where j.state < 'active' and j.start_after <= now()) as queued,
             count(j.id) filter (where j.state < 'active' and j.start_after > now()) as deferred,
             count(j.id) filter (where j.state = 'active') as active,
             coalesce(extract(epoch from now() - min(j.start_after)
               filter (where j.state < 'active' and j.start_after <= now())), 0) as oldest
        from pgboss.queue q
        left join pgboss.job j on j.name = q.name and j.state <= 'active'
       group by q.name`)
    return result.rows.map((row: any) => ({
      name: row.name,
      queued: Number(row.queued),
      deferred: Number(row.deferred),
      active: Number(row.active),
      oldest: Number(row.oldest),
    }))
  }

  /** Open deliveries (pending, failed) and those created in the last 24 hours, by channel and status. */
  async deliveries(): Promise<DeliveryCount[]> {
    const result = await db.rawQuery(`
      select channel, status, count(*) as n from deliveries
       where status in ('pending', 'failed')
          or created_at > now() - interval '24 hours'
       group by channel, status`)
    return result.rows.map((row: any) => ({
      channel: row.channel,
      status: row.status,
      count: Number(row.n),
    }))
  }
}
