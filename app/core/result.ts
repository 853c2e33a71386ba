/*
 * Expected failures of domain services are returned, not thrown: a service
 * answers `ok(value)` or `fail(reason, details)`, and the controller maps the
 * reason to HTTP in one place. No HTTP status lives in domain code.
 */
export type Ok<T> = { ok: true; value: T }
export type Fail<R extends string, D = undefined> = {
  ok: false
  reason: R
  /** What the failure is about, in domain names; each module's problems.ts maps it to the wire. */
  details?: D
  errors?: Record<string, string[]>
  message?: string
}
export type Result<T, R extends string = string> = Ok<T> | Fail<R>

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value })

export function fail<R extends string>(
  reason: R,
  extra?: Omit<Fail<R>, 'ok' | 'reason' | 'details'>
): Fail<R>
export function fail<R extends string, D>(
  reason: R,
  extra: Omit<Fail<R, D>, 'ok' | 'reason'> & { details: D }
): Fail<R, D>
export function fail(reason: string, extra: object = {}) {
  return { ok: false, reason, ...extra }
}
