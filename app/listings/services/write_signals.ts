/*
 * How one attempt of a listing change tells ChangeListing's loop what to do
 * next. Internal to the write path and never an answer to a caller: domain
 * failures are listing_failures.ts, mapped to the wire in http/problems.ts.
 */
export type WriteSignal =
  /** The revision-guarded UPDATE lost to another writer: try again on a fresh read. */
  | 'lost_race'
  /** The edit names a new responsible while a desasociar runs: retry holding off desasociar first. */
  | 'members_busy'
  /** `Locacion` names another place than the listing's: resolve it outside any transaction, then retry. */
  | 'resolve_location'
  /** The attempt without a transaction met something that needs one: retry in a transaction. */
  | 'needs_lock'
  /** A probe (`ChangeListing.unchanged`) reached a write: the change would change the listing. */
  | 'would_write'

export type Signal<S extends WriteSignal = WriteSignal> = { ok: false; signal: S }

export const signal = <S extends WriteSignal>(name: S): Signal<S> => ({ ok: false, signal: name })

/** Whether `result` is a signal (not an answer). */
export function isSignal(result: { ok: boolean }): result is Signal {
  return !result.ok && 'signal' in result
}
