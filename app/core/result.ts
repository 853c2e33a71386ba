/*
 * Expected failures of domain services are returned, not thrown: a service
 * answers `ok(value)` or `fail(reason, details)`, and the controller maps the
 * reason to HTTP in one place. No HTTP status lives in domain code.
 */
export type Ok<T> = { ok: true; value: T }
export type Fail<R extends string> = {
  ok: false
  reason: R
  errors?: Record<string, string[]>
  message?: string
}
export type Result<T, R extends string = string> = Ok<T> | Fail<R>

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value })

export function fail<R extends string>(
  reason: R,
  extra: Omit<Fail<R>, 'ok' | 'reason'> = {}
): Fail<R> {
  return { ok: false, reason, ...extra }
}
