/*
 * What a database error means for the client (docs/design.md §13): the database
 * being away is the service's problem, told as 503 + Retry-After; a unique
 * violation is a race the sequential path would have answered, so it is
 * replayed or answered as 409 — never a 500.
 */

/** PostgreSQL SQLSTATEs that mean "the server is away or refusing connections for now". */
const UNAVAILABLE_STATES = new Set([
  '57P01', // admin_shutdown (pg_ctl stop/restart -m fast, pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
])

/** Socket-level failures of the driver. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** node-postgres and knex report some losses only in words. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Connection ended unexpectedly/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /Timeout acquiring a connection/i,
  /the database system is (starting up|shutting down|in recovery)/i,
  /terminating connection due to administrator command/i,
  // Lucid's managed transaction rolls back after a COMMIT that failed with the
  // connection; knex then answers the ROLLBACK with this instead of the loss.
  /Transaction query already complete/i,
]

/** The error and the errors it wraps (`cause`, knex's `nativeError`, AggregateError's `errors`). */
function* chain(error: unknown, depth = 0): Generator<any> {
  if (!error || typeof error !== 'object' || depth > 5) return
  yield error
  const wrapped = error as { cause?: unknown; nativeError?: unknown; errors?: unknown }
  yield* chain(wrapped.cause, depth + 1)
  yield* chain(wrapped.nativeError, depth + 1)
  if (Array.isArray(wrapped.errors))
    for (const inner of wrapped.errors) yield* chain(inner, depth + 1)
}

/** True when the error says the database cannot be reached or refuses work for now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of chain(error)) {
    const code = typeof link.code === 'string' ? link.code : ''
    if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true
    // Class 08: connection exception (08000, 08003, 08006, 08001, 08004, …).
    if (/^08[0-9A-Z]{3}$/.test(code)) return true
    if (link.name === 'KnexTimeoutError') return true
    const message = typeof link.message === 'string' ? link.message : ''
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true
  }
  return false
}

/** The constraint a unique violation (23505) names, or null when the error is not one. */
export function uniqueViolation(error: unknown): string | null {
  for (const link of chain(error)) {
    if (link.code === '23505') return typeof link.constraint === 'string' ? link.constraint : ''
  }
  return null
}

/**
 * Runs `work` (a whole transaction) and, when it loses a race on one of
 * `constraints`, runs it once more. The winner has committed by then
 * (PostgreSQL reports 23505 only after the other transaction commits), so the
 * second run takes the sequential path: it finds the row and answers what a
 * repeated request answers (usually a 409 with `Errors` by field).
 */
export async function retryOnUniqueViolation<T>(
  constraints: string[],
  work: () => Promise<T>
): Promise<T> {
  try {
    return await work()
  } catch (error) {
    const constraint = uniqueViolation(error)
    if (constraint === null || !constraints.includes(constraint)) throw error
    return work()
  }
}
