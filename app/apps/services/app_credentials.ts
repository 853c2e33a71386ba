/*
 * Bearer credentials of apps, verified with a short-lived in-process memory:
 * a verified token and its app are reused for CREDENTIAL_TTL_MS, so a busy
 * app costs the database one token lookup (and one `last_used_at` write) per
 * token every few seconds instead of three statements per request. A revoked
 * token or a changed ability takes effect within that window.
 */
import { createHash } from 'node:crypto'
import type { Secret } from '@adonisjs/core/helpers'
import {
  AccessToken,
  AccessTokensLucidUserProvider,
  DbAccessTokensProvider,
} from '@adonisjs/auth/access_tokens'
import type App from '#apps/models/app'

export const CREDENTIAL_TTL_MS = 5_000
const MAX_ENTRIES = 10_000

/** A small TTL map; cleared wholesale when it grows past its bound. */
class Recent<V> {
  #entries = new Map<string, { value: V; until: number }>()

  get(key: string): V | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.until > Date.now()) return entry.value
    this.#entries.delete(key)
    return undefined
  }

  set(key: string, value: V) {
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear()
    this.#entries.set(key, { value, until: Date.now() + CREDENTIAL_TTL_MS })
  }

  clear() {
    this.#entries.clear()
  }
}

const verifiedTokens = new Recent<AccessToken>()
const apps = new Recent<App>()

/** Forgets every remembered credential (token revocation, tests). */
export function forgetCredentials() {
  verifiedTokens.clear()
  apps.clear()
}

export class AppTokensProvider extends DbAccessTokensProvider<typeof App> {
  async verify(tokenValue: Secret<string>) {
    const key = createHash('sha256').update(tokenValue.release()).digest('base64url')
    const known = verifiedTokens.get(key)
    if (known && !known.isExpired()) return known
    const token = await super.verify(tokenValue)
    if (token) verifiedTokens.set(key, token)
    return token
  }
}

export class AppsUserProvider extends AccessTokensLucidUserProvider<'accessTokens', typeof App> {
  async findById(identifier: string | number | BigInt) {
    const key = String(identifier)
    const known = apps.get(key)
    if (known) return this.createUserForGuard(known)
    const found = await super.findById(identifier)
    if (found) apps.set(key, found.getOriginal())
    return found
  }
}
