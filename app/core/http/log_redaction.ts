/*
 * Paths as the request log writes them (docs/design.md §25, "Secrets and
 * tokens out of logs"): a path segment that is a credential becomes
 * `[redacted]`. A credential in a path is the value of a route parameter named
 * `token` (the agency registration link's `/registro/:token`): the rules come
 * from the routes themselves, and apply to any path whose leading segments
 * match — also one that matched no route (`/registro/<token>/x`, `/Registro/…`).
 */
import router from '@adonisjs/core/services/router'

export const REDACTED = '[redacted]'

/** Route parameters whose value is a credential: name a new one `token` and its value is redacted. */
const CREDENTIAL_PARAMS = new Set(['token'])

/** The segments up to a credential: a static one (lowercase) or null for any value, and the credential's place. */
type Rule = { before: Array<string | null>; at: number }

let rules: Rule[] | undefined

function rulesOf(patterns: string[]): Rule[] {
  const found: Rule[] = []
  for (const pattern of patterns) {
    const segments = pattern.split('/').filter(Boolean)
    segments.forEach((segment, at) => {
      const param = segment.startsWith(':') ? segment.slice(1).replace(/\?$/, '') : null
      if (param === null || !CREDENTIAL_PARAMS.has(param)) return
      const before = segments
        .slice(0, at)
        .map((one) => (one.startsWith(':') || one === '*' ? null : one.toLowerCase()))
      found.push({ before, at })
    })
  }
  return found
}

/** The routes' rules, read once the routes are committed (the first request). */
function routeRules(): Rule[] {
  rules ??= rulesOf(
    Object.values(router.toJSON())
      .flat()
      .map((route) => route.pattern)
  )
  return rules
}

/** `path` with every credential segment replaced by `[redacted]`; `patterns`: given in unit tests. */
export function redactedPath(path: string, patterns?: string[]): string {
  const applicable = patterns ? rulesOf(patterns) : routeRules()
  if (applicable.length === 0) return path
  const segments = path.split('/')
  // Indexes of the non-empty segments: `//registro/x` is the route's path to the router too.
  const filled = segments.flatMap((segment, index) => (segment ? [index] : []))
  for (const rule of applicable) {
    if (filled.length <= rule.at) continue
    const matches = rule.before.every(
      (expected, i) => expected === null || segments[filled[i]].toLowerCase() === expected
    )
    if (matches) segments[filled[rule.at]] = REDACTED
  }
  return segments.join('/')
}
