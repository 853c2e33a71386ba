/** One sample of a gauge read at scrape time. */
export type Sample = { name: string; labels?: Record<string, string>; value: number }

/**
 * Gauges filled by one read at scrape time (one query, usually). `collect`
 * returns the current samples; a label set it omits disappears.
 */
export type ScrapeSet = {
  name: string
  metrics: Array<{ name: string; help: string; labelNames?: string[] }>
  collect: () => Promise<Sample[]>
}
