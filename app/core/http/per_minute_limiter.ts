/*
 * A per-minute limiter whose limit is a setting: made once, and again only
 * when the setting changes (tests change them). Adonis' `limiter.use` parses
 * its options and builds a key on every call.
 *
 * And the headers every response counted by such a limit carries: the IETF
 * httpapi draft's `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers-10, §3–4: a quoted policy name with
 * `q` quota and `w` window; `r` remaining and `t` seconds until the quota
 * resets) beside the older `X-RateLimit-Limit`/`-Remaining`, and on a 429
 * `Retry-After` (with `X-RateLimit-Reset`, as Adonis' own 429 had it).
 */
import limiter from '@adonisjs/limiter/services/main'

type Limiter = ReturnType<typeof limiter.use>

/** The window of every per-minute limit, as `w` says it. */
export const WINDOW_SECONDS = 60

export function perMinuteLimiter(requests: () => number): () => Limiter {
  let made: { requests: number; limit: Limiter } | undefined
  return () => {
    const current = requests()
    if (made?.requests !== current)
      made = { requests: current, limit: limiter.use({ requests: current, duration: '1 minute' }) }
    return made.limit
  }
}

/** What a limiter answered for one key (Adonis' LimiterResponse has these). */
export type LimitState = { limit: number; remaining: number; availableIn: number }

/**
 * The headers of a response counted against `policy` (a name the docs explain),
 * whose window is `windowSeconds` (a per-minute limit's by default).
 */
export function rateLimitHeaders(
  policy: string,
  state: LimitState,
  windowSeconds = WINDOW_SECONDS
): Record<string, string> {
  const remaining = Math.max(0, state.remaining)
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(remaining),
    'RateLimit-Policy': `"${policy}";q=${state.limit};w=${windowSeconds}`,
    'RateLimit': `"${policy}";r=${remaining};t=${Math.max(0, state.availableIn)}`,
  }
}

/** The headers of a 429 from `policy`: the above, `Retry-After` (≥ 1 s) and `X-RateLimit-Reset`. */
export function tooManyHeaders(
  policy: string,
  state: LimitState,
  windowSeconds = WINDOW_SECONDS
): Record<string, string> {
  const retryAfter = Math.max(1, state.availableIn)
  return {
    ...rateLimitHeaders(policy, { ...state, remaining: 0, availableIn: retryAfter }, windowSeconds),
    'Retry-After': String(retryAfter),
    'X-RateLimit-Reset': new Date(Date.now() + retryAfter * 1000).toISOString(),
  }
}
