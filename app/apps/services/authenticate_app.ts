/*
 * The app a bearer token stands for (docs/design.md §3, §13, §18): the token
 * decoded, its row read with its app's state in one statement, the secret
 * compared with the stored hash, then refused when revoked, expired or its
 * app disabled. A verified credential is remembered for a few seconds
 * (CredentialMemory); its expiry is still checked on every request.
 *
 * Verification has no side effect unless it succeeds: a malformed token never
 * reaches the database, a wrong secret or a refused token writes nothing.
 * A verified one records its use (UltimoUso) at most once a minute: the row
 * read says when it was last recorded, so a busy token costs one UPDATE a
 * minute across all processes, not one per request or per memory refresh.
 */
import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import TokenStore from '#apps/stores/token_store'
import { CredentialMemory, type Credential } from '#apps/services/credential_memory'
import { decodeToken, secretMatches } from '#apps/services/token_format'

/** How stale `last_used_at` may be before a verified use writes it again. */
export const LAST_USE_RESOLUTION_MS = 60_000

@inject()
export default class AuthenticateApp {
  constructor(
    private memory: CredentialMemory,
    private tokens: TokenStore
  ) {}

  /** The credential, or null: unknown, wrong, malformed, revoked or expired token, or a disabled app. */
  async execute(bearer: string, at?: DateTime): Promise<Credential | null> {
    const known = this.memory.recall(bearer)
    // The common case, a remembered credential, compares epoch milliseconds: no DateTime built.
    if (known)
      return known.expiresAt && known.expiresAt.toMillis() <= (at?.toMillis() ?? Date.now())
        ? null
        : known
    const now = at ?? DateTime.now()
    const decoded = decodeToken(bearer)
    if (!decoded) return null
    const row = await this.tokens.credential(decoded.id)
    if (!row || !secretMatches(row.hash, decoded.secret)) return null
    if (row.revokedAt || row.appDisabledAt || (row.expiresAt && row.expiresAt <= now)) return null
    if (!row.lastUsedAt || now.toMillis() - row.lastUsedAt.toMillis() >= LAST_USE_RESOLUTION_MS)
      await this.tokens.touch(row.id, now)
    const credential: Credential = {
      caller: Object.freeze({ id: row.appId, abilities: Object.freeze([...row.abilities]) }),
      tokenId: row.id,
      expiresAt: row.expiresAt,
    }
    this.memory.remember(bearer, credential)
    return credential
  }
}
