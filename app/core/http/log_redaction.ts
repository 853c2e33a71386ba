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

/**
 * One rule per credential parameter: the path up to it (its static segments
 * case-insensitive, other parameters any one segment, repeated slashes as the
 * router takes them) captured, then the credential segment.
 */
let rules: RegExp[] | undefined

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function rulesOf(patterns: string[]): RegExp[] {
  const found: RegExp[] = []
  for (const pattern of patterns) {
    const segments = pattern.split('/').filter(Boolean)
    segments.forEach((segment, at) => {
      const param = segment.startsWith(':') ? segment.slice(1).replace(/\?$/, '') : null
      if (param === null || !CREDENTIAL_PARAMS.has(param)) return
      const before = segments
        .slice(0, at)
        .map((one) => (one.startsWith(':') || one === '*' ? '[^/]+' : escape(one)) + '/+')
      found.push(new RegExp(`^(/+${before.join('')})[^/]+`, 'i'))
    })
  }
  return found
}

/** The routes' rules, read once the routes are committed (the first request). */
function routeRules(): RegExp[] {
  rules ??= rulesOf(
    Object.values(router.toJSON())
      .flat()
      .map((route) => route.pattern)
  )
  return rules
}

/**
 * A segment shaped like this service's bearer tokens (`dla_<id>.<secret>`, the
 * shape app/apps/services/token_format.ts issues; core does not import apps),
 * wherever it stands: a token pasted into a path (`/v3/credenciales/dla_…`)
 * is a secret in a log all the same. Its `_` may arrive percent-encoded.
 */
const TOKEN_SEGMENT = /(?<=\/)dla(?:_|%5f)[^/]*/gi

/** `path` with every credential segment replaced by `[redacted]`; `patterns`: given in unit tests. */
export function redactedPath(path: string, patterns?: string[]): string {
  let logged = path.replace(TOKEN_SEGMENT, REDACTED)
  for (const rule of patterns ? rulesOf(patterns) : routeRules()) {
    logged = logged.replace(rule, `$1${REDACTED}`)
  }
  return logged
}
