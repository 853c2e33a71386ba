import { fail, ok, type Result } from '#core/result'

/**
 * The entries of a parent (a brand's models, a model's versions); the parent's
 * existence is asked only when none came back: entries found name an existing
 * parent (one statement fewer per request, docs/decisions/performance.md, Performance).
 */
export async function listedUnder<T, R extends string>(
  entries: T[],
  parentExists: () => Promise<boolean>,
  missing: R
): Promise<Result<T[], R>> {
  if (entries.length === 0 && !(await parentExists())) return fail(missing)
  return ok(entries)
}
