/*
 * Requests by route pattern (not raw URL: bounded cardinality), method and
 * status, as a Prometheus histogram of latency whose `_count` is the request
 * counter. Its own small accumulator rather than prom-client's Histogram,
 * whose `observe` hashes the label set on every call (≈ 1 µs): here a request
 * costs three map lookups and a bucket scan (≈ 35 ns measured, see
 * docs/decisions/core.md), and no allocation once its combination has been seen.
 * prom-client still renders it.
 */
import type { Metric } from 'prom-client'
import { registerMetric } from './registry.js'

const NAME = 'http_request_duration_seconds'
const HELP =
  'HTTP requests by route pattern, method and status: latency in seconds (_count: requests).'
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

type Series = {
  labels: { route: string; method: string; status: string }
  /** Observations per bucket (not cumulative); beyond the last bucket they count only in `count`. */
  counts: Float64Array
  sum: number
  count: number
}

const series = new Map<string, Map<string, Map<number, Series>>>()

/** `route` is the matched pattern, or undefined when no route matched. */
export function observeRequest(
  route: string | undefined,
  method: string,
  status: number,
  seconds: number
) {
  const pattern = route ?? 'unmatched'
  let byMethod = series.get(pattern)
  if (!byMethod) series.set(pattern, (byMethod = new Map()))
  let byStatus = byMethod.get(method)
  if (!byStatus) byMethod.set(method, (byStatus = new Map()))
  let one = byStatus.get(status)
  if (!one) {
    one = {
      labels: { route: pattern, method, status: String(status) },
      counts: new Float64Array(BUCKETS.length),
      sum: 0,
      count: 0,
    }
    byStatus.set(status, one)
  }
  let bucket = 0
  while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) bucket++
  if (bucket < BUCKETS.length) one.counts[bucket]++
  one.sum += seconds
  one.count++
}

type Value = { labels: Record<string, string | number>; value: number; metricName: string }

function values(): Value[] {
  const out: Value[] = []
  for (const byMethod of series.values())
    for (const byStatus of byMethod.values())
      for (const one of byStatus.values()) {
        let cumulative = 0
        for (const [index, bound] of BUCKETS.entries()) {
          cumulative += one.counts[index]
          out.push({
            labels: { ...one.labels, le: bound },
            value: cumulative,
            metricName: `${NAME}_bucket`,
          })
        }
        out.push(
          { labels: { ...one.labels, le: '+Inf' }, value: one.count, metricName: `${NAME}_bucket` },
          { labels: one.labels, value: one.sum, metricName: `${NAME}_sum` },
          { labels: one.labels, value: one.count, metricName: `${NAME}_count` }
        )
      }
  return out
}

registerMetric({
  name: NAME,
  help: HELP,
  type: 'histogram',
  aggregator: 'sum',
  get: async () => ({
    name: NAME,
    help: HELP,
    type: 'histogram',
    aggregator: 'sum',
    values: values(),
  }),
  reset: () => series.clear(),
} as unknown as Metric)
