/*
 * Core metrics read at scrape time: job queues (pg-boss tables), outbound
 * deliveries, and this process's database pool.
 */
import app from '@adonisjs/core/services/app'
import { poolStates } from '#core/database/pool_stats'
import MetricsStore from '#core/stores/metrics_store'
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
    const store = await app.container.make(MetricsStore)
    const queues = await store.queues()
    return queues.flatMap((row): Sample[] => {
      const labels = { queue: row.name }
      return [
        { name: 'jobs_queued', labels, value: row.queued },
        { name: 'jobs_deferred', labels, value: row.deferred },
        { name: 'jobs_active', labels, value: row.active },
        { name: 'jobs_oldest_queued_age_seconds', labels, value: row.oldest },
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
    const store = await app.container.make(MetricsStore)
    const counts = await store.deliveries()
    return counts.map((row): Sample => {
      const open = row.status === 'pending' || row.status === 'failed'
      return open
        ? {
            name: 'deliveries_open',
            labels: { channel: row.channel, status: row.status },
            value: row.count,
          }
        : {
            name: 'deliveries_settled_24h',
            labels: { channel: row.channel, outcome: row.status },
            value: row.count,
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
    return poolStates().flatMap(({ connection, used, free, pending, max }): Sample[] => [
      { name: 'db_pool_connections', labels: { connection, state: 'used' }, value: used },
      { name: 'db_pool_connections', labels: { connection, state: 'free' }, value: free },
      { name: 'db_pool_connections', labels: { connection, state: 'pending' }, value: pending },
      { name: 'db_pool_max', labels: { connection }, value: max },
    ])
  },
}

export const coreScrapeSets: ScrapeSet[] = [jobs, deliveries, pool]
