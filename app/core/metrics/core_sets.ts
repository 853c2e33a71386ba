/*
 * Core metrics read at scrape time: job queues (pg-boss tables), outbound
 * deliveries, and this process's database pool.
 */
import db from '@adonisjs/lucid/services/db'
import type { Sample, ScrapeSet } from './types.js'

const jobs: ScrapeSet = {
  name: 'jobs',
  metrics: [
    { name: 'jobs_queued', help: 'Jobs due and waiting for a worker.', labelNames: ['queue'] },
    {
      name: 'jobs_deferred',
      help: 'Jobs waiting for a later start (retries, delays).',
      labelNames: ['queue'],
    },
    { name: 'jobs_active', help: 'Jobs being worked now.', labelNames: ['queue'] },
    {
      name: 'jobs_oldest_queued_age_seconds',
      help: 'How long the oldest due job has waited (0 when none waits).',
      labelNames: ['queue'],
    },
  ],
  async collect() {
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
    return result.rows.flatMap((row: any): Sample[] => {
      const labels = { queue: row.name }
      return [
        { name: 'jobs_queued', labels, value: Number(row.queued) },
        { name: 'jobs_deferred', labels, value: Number(row.deferred) },
        { name: 'jobs_active', labels, value: Number(row.active) },
        { name: 'jobs_oldest_queued_age_seconds', labels, value: Number(row.oldest) },
      ]
    })
  },
}

const deliveries: ScrapeSet = {
  name: 'deliveries',
  metrics: [
    {
      name: 'deliveries_open',
      help: 'Deliveries not settled yet, by channel and status (pending, failed: retrying).',
      labelNames: ['channel', 'status'],
    },
    {
      name: 'deliveries_settled_24h',
      help: 'Deliveries created in the last 24 hours and settled, by channel and outcome (delivered, dead, disabled).',
      labelNames: ['channel', 'outcome'],
    },
  ],
  async collect() {
    const result = await db.rawQuery(`
      select channel, status, count(*) as n from deliveries
       where status in ('pending', 'failed')
          or created_at > now() - interval '24 hours'
       group by channel, status`)
    return result.rows.map((row: any): Sample => {
      const open = row.status === 'pending' || row.status === 'failed'
      return open
        ? {
            name: 'deliveries_open',
            labels: { channel: row.channel, status: row.status },
            value: Number(row.n),
          }
        : {
            name: 'deliveries_settled_24h',
            labels: { channel: row.channel, outcome: row.status },
            value: Number(row.n),
          }
    })
  },
}

const pool: ScrapeSet = {
  name: 'db_pool',
  metrics: [
    {
      name: 'db_pool_connections',
      help: 'Database connections of this process by pool state (used, free, pending acquires).',
      labelNames: ['connection', 'state'],
    },
    { name: 'db_pool_max', help: 'Pool size limit.', labelNames: ['connection'] },
  ],
  async collect() {
    const samples: Sample[] = []
    for (const [name, node] of db.manager.connections) {
      const tarn = node.connection?.pool
      if (!tarn) continue
      const connection = name
      samples.push(
        {
          name: 'db_pool_connections',
          labels: { connection, state: 'used' },
          value: tarn.numUsed(),
        },
        {
          name: 'db_pool_connections',
          labels: { connection, state: 'free' },
          value: tarn.numFree(),
        },
        {
          name: 'db_pool_connections',
          labels: { connection, state: 'pending' },
          value: tarn.numPendingAcquires(),
        },
        {
          name: 'db_pool_max',
          labels: { connection },
          value: (tarn as unknown as { max: number }).max,
        }
      )
    }
    return samples
  },
}

export const coreScrapeSets: ScrapeSet[] = [jobs, deliveries, pool]
