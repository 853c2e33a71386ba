/*
 * The service's Prometheus registry (docs/design.md §14). Two kinds of
 * metrics: those counted as things happen in this process (HTTP requests,
 * app/core/metrics/http_metrics.ts) and those read from the database at
 * scrape time, which tell the truth across processes (queues, deliveries,
 * photos, inquiries). Modules contribute the latter through their providers.
 */
import { Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client'
import { contributions } from '#core/modules'
import type { ScrapeSet } from './types.js'

const registry = new Registry()
collectDefaultMetrics({ register: registry })

/** Adds a metric counted in this process (app/core/metrics/http_metrics.ts). */
export function registerMetric(metric: Metric) {
  registry.registerMetric(metric)
}

type Loaded = { set: ScrapeSet; gauges: Map<string, Gauge> }

let loaded: Promise<Loaded[]> | null = null

async function load(): Promise<Loaded[]> {
  const { coreScrapeSets } = await import('./core_sets.js')
  const modules = await contributions('metrics')
  const sets = [...coreScrapeSets, ...modules.flatMap((module) => module.metrics)]
  return sets.map((set) => ({
    set,
    gauges: new Map(
      set.metrics.map((metric) => [
        metric.name,
        new Gauge({
          name: metric.name,
          help: metric.help,
          labelNames: metric.labelNames ?? [],
          registers: [registry],
        }),
      ])
    ),
  }))
}

/** Every metric in the Prometheus text format, the scrape-time ones read now. */
export async function scrape(onError: (error: unknown, set: string) => void = () => {}) {
  loaded ??= load()
  const sets = await loaded
  await Promise.all(
    sets.map(async ({ set, gauges }) => {
      try {
        const samples = await set.collect()
        for (const gauge of gauges.values()) gauge.reset()
        for (const sample of samples)
          gauges.get(sample.name)?.set(sample.labels ?? {}, sample.value)
      } catch (error) {
        // One failing source (say, pg-boss not installed yet) leaves the others readable.
        onError(error, set.name)
      }
    })
  )
  return registry.metrics()
}

export const METRICS_CONTENT_TYPE = registry.contentType
