/*
 * Ids on the operators' command lines (`APP_ID`, `TOKEN_ID`, `--app N`): read
 * as text and checked here, so an id beyond its column (`99999999999`), `1e3`,
 * `-1` or `abc` is one error line and a non-zero exit, never a database error
 * and its stack trace. Every id column of the commands is a PostgreSQL integer.
 */

/** The largest value of an `integer` (int4) column. */
export const MAX_ID = 2_147_483_647

/** A positive integer of an id column, written plainly (`42`), else null. */
export function idOf(value: string | undefined): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null
  const id = Number(value)
  return id <= MAX_ID ? id : null
}

/** A count on a command line (`--limit 20`): a positive integer up to `max`, written plainly, else null. */
export function countOf(value: string | undefined, max: number): number | null {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value)) return null
  const count = Number(value)
  return count <= max ? count : null
}
