/** Rows changed by a query-builder update (knex answers a count, Lucid may wrap it in an array). */
export function affected(result: unknown): number {
  return Number(Array.isArray(result) ? (result[0] ?? 0) : result)
}
