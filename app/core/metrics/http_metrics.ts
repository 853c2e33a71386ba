/*
 * Requests by route pattern (not raw URL: bounded cardinality), method and
 * status. The histogram's `_count` is the request counter. Children are
 * cached per (route, method, status), so a request costs map lookups and one
 * observe — no allocation once a combination has been seen.
 */
import { Histogram } from 'prom-client'
import { registry } from './registry.js'

const requests = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status: latency in seconds (_count: requests).',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
})

type Child = ReturnType<typeof requests.labels>
const children = new Map<string, Map<string, Map<number, Child>>>()

/** `route` is the matched pattern, or undefined when no route matched. */
export function observeRequest(
  route: string | undefined,
  method: string,
  status: number,
  seconds: number
) {
  const pattern = route ?? 'unmatched'
  let byMethod = children.get(pattern)
  if (!byMethod) children.set(pattern, (byMethod = new Map()))
  let byStatus = byMethod.get(method)
  if (!byStatus) byMethod.set(method, (byStatus = new Map()))
  let child = byStatus.get(status)
  if (!child) byStatus.set(status, (child = requests.labels(pattern, method, String(status))))
  child.observe(seconds)
}
