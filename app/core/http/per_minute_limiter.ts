/*
 * A per-minute limiter whose limit is a setting: made once, and again only
 * when the setting changes (tests change them). Adonis' `limiter.use` parses
 * its options and builds a key on every call.
 */
import limiter from '@adonisjs/limiter/services/main'

type Limiter = ReturnType<typeof limiter.use>

export function perMinuteLimiter(requests: () => number): () => Limiter {
  let made: { requests: number; limit: Limiter } | undefined
  return () => {
    const current = requests()
    if (made?.requests !== current)
      made = { requests: current, limit: limiter.use({ requests: current, duration: '1 minute' }) }
    return made.limit
  }
}
