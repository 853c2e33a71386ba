/*
 * Bearer credentials of apps, verified with a short-lived in-process memory:
 * a verified token and its app are reused for CREDENTIAL_TTL_MS, so a busy
 * app costs the database one token lookup (and one `last_used_at` write) per
 * token every few seconds instead of three statements per request. A revoked
 * token or a changed ability takes effect within that window.
 *
 * Verification has no side effect unless it succeeds: a malformed token never
 * reaches the database, a wrong secret writes nothing (docs/design.md §13).
 */
import { hash } from 'node:crypto'
import { base64, Secret } from '@adonisjs/core/helpers'
import { type AccessToken, DbAccessTokensProvider } from '@adonisjs/auth/access_tokens'
import { Recent } from '#core/recent'
import type App from '#apps/models/app'

export const CREDENTIAL_TTL_MS = 5_000
/** `app_tokens.id` is an integer column. */
const MAX_TOKEN_ID = 2_147_483_647

const verifiedTokens = new Recent<AccessToken>(CREDENTIAL_TTL_MS)
/** Apps by id, read after their token verified (app_bearer.ts). */
export const rememberedApps = new Recent<App>(CREDENTIAL_TTL_MS)

const memoryKey = (value: string) => hash('sha256', value, 'base64url')

/** Forgets every remembered credential (token revocation, tests). */
export function forgetCredentials() {
  verifiedTokens.clear()
  rememberedApps.clear()
}

/**
 * `<prefix><base64url id>.<base64url secret>` → its parts, or null: anything
 * else, an id that is not a positive integer of the column's range, or
 * base64url that does not round-trip is refused before any query.
 */
export function decodeToken(
  prefix: string,
  value: string
): { id: number; secret: Secret<string> } | null {
  if (!value.startsWith(prefix)) return null
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(value.slice(prefix.length))
  if (!match) return null
  const id = base64.urlDecode(match[1])
  const secret = base64.urlDecode(match[2])
  if (id === null || !secret || !/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > MAX_TOKEN_ID)
    return null
  return { id: Number(id), secret: new Secret(secret) }
}

export class AppTokensProvider extends DbAccessTokensProvider<typeof App> {
  /** The token a bearer value stands for, or null; `last_used_at` is written only for a verified one. */
  async verify(tokenValue: Secret<string>) {
    const value = tokenValue.release()
    const key = memoryKey(value)
    const known = verifiedTokens.get(key)
    if (known && !known.isExpired()) return known
    const decoded = decodeToken(this.prefix, value)
    if (!decoded) return null
    const db = await this.getDb()
    const row = await db.query().from(this.table).where({ id: decoded.id, type: this.type }).first()
    if (!row) return null
    const token = this.dbRowToAccessToken(row)
    if (!token.verify(decoded.secret) || token.isExpired()) return null
    token.lastUsedAt = new Date()
    await db.from(this.table).where({ id: row.id }).update({ last_used_at: token.lastUsedAt })
    verifiedTokens.set(key, token)
    return token
  }
}
