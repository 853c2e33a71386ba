/*
 * The web process's memory of verified credentials (one per process: a
 * container singleton, app/apps/provider.ts). A verified bearer value is
 * remembered CREDENTIAL_TTL_MS with its app, so a busy app costs the database
 * one lookup per token every few seconds instead of one per request; a
 * revocation, a disabled app or a changed ability made in another process is
 * seen within that window. An expiry is checked on every request from the
 * remembered `expiresAt`, so it takes effect on time.
 *
 * It also remembers which client addresses failed to authenticate here in
 * the last minute: only those pay the failure limiter's lookup
 * (authenticate_middleware.ts), and holds that limiter, made once per
 * AUTH_FAILURES_PER_MINUTE value.
 */
import { hash } from 'node:crypto'
import type { DateTime } from 'luxon'
import { Recent } from '#core/recent'
import type { CallingApp } from '#core/auth/caller'
import { settings } from '#core/settings'
import { perMinuteLimiter } from '#core/http/per_minute_limiter'

export const CREDENTIAL_TTL_MS = 5_000
const SUSPECT_MS = 60_000
const MAX_SUSPECTS = 10_000

/** A verified credential: the app it stands for and the token that proved it. */
export type Credential = {
  caller: CallingApp
  tokenId: number
  expiresAt: DateTime | null
}

export class CredentialMemory {
  #verified = new Recent<Credential>(CREDENTIAL_TTL_MS)
  /** Address → until when (ms) this process checks it against the limiter. */
  #suspects = new Map<string, number>()
  #failures = perMinuteLimiter(() => settings.authFailuresPerMinute)

  /** The bearer value is kept only as its SHA-256. */
  #key(bearer: string) {
    return hash('sha256', bearer, 'base64url')
  }

  recall(bearer: string): Credential | undefined {
    return this.#verified.get(this.#key(bearer))
  }

  remember(bearer: string, credential: Credential) {
    this.#verified.set(this.#key(bearer), credential)
  }

  /** Forgets every credential (after this process revoked, rotated or disabled; tests). */
  forget() {
    this.#verified.clear()
  }

  /** The per-address limiter of authentication failures. */
  failures() {
    return this.#failures()
  }

  isSuspect(address: string, now = Date.now()) {
    return (this.#suspects.get(address) ?? 0) > now
  }

  suspect(address: string, now = Date.now()) {
    if (this.#suspects.size >= MAX_SUSPECTS)
      for (const [key, until] of this.#suspects) if (until <= now) this.#suspects.delete(key)
    this.#suspects.set(address, now + SUSPECT_MS)
  }
}

export default CredentialMemory
