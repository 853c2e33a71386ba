/*
 * `app_tokens`: the query builder (there is no token model; the table was
 * Adonis' access-tokens table and keeps its columns). Secrets are never
 * here, only their SHA-256 (`hash`), which no read but `credential` returns.
 * None of these statements is on a request's hot path: authentication reads
 * `credential` once per token per process every few seconds (CredentialMemory).
 */
import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { Ability } from '#core/auth/abilities'
import type { Tx } from '#core/database/unit_of_work'
import type { DatabaseQueryBuilderContract } from '@adonisjs/lucid/types/querybuilder'
import { TOKEN_TYPE } from '#apps/services/token_format'

/** A token as listed: no secret, no hash. */
export type TokenRow = {
  id: number
  appId: number
  name: string | null
  createdAt: DateTime
  lastUsedAt: DateTime | null
  expiresAt: DateTime | null
  revokedAt: DateTime | null
}

/** What authentication reads of a token and its app, in one statement. */
export type CredentialRow = TokenRow & {
  hash: string
  abilities: Ability[]
  appDisabledAt: DateTime | null
}

export type NewToken = {
  appId: number
  name: string | null
  hash: string
  expiresAt: DateTime | null
}

const COLUMNS = [
  'id',
  'tokenable_id',
  'name',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
]

const instant = (value: Date | null | undefined) => (value ? DateTime.fromJSDate(value) : null)

function rowOf(row: Record<string, any>): TokenRow {
  return {
    id: row.id,
    appId: row.tokenable_id,
    name: row.name,
    createdAt: DateTime.fromJSDate(row.created_at),
    lastUsedAt: instant(row.last_used_at),
    expiresAt: instant(row.expires_at),
    revokedAt: instant(row.revoked_at),
  }
}

const client = (tx?: Tx) => tx ?? db
const tokens = (tx?: Tx) => client(tx).from('app_tokens').where('type', TOKEN_TYPE)

/** Narrows a query of `app_tokens` to the tokens that authenticate at `now`. */
const live = (query: DatabaseQueryBuilderContract, now: DateTime) =>
  query
    .whereNull('revoked_at')
    .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now.toJSDate()))

export default class TokenStore {
  async insert(token: NewToken, tx?: Tx): Promise<TokenRow> {
    const now = new Date()
    const [row] = await client(tx)
      .insertQuery()
      .table('app_tokens')
      .insert({
        tokenable_id: token.appId,
        type: TOKEN_TYPE,
        name: token.name,
        hash: token.hash,
        abilities: JSON.stringify(['*']),
        created_at: now,
        updated_at: now,
        last_used_at: null,
        expires_at: token.expiresAt?.toJSDate() ?? null,
      })
      .returning(COLUMNS)
    return rowOf(row)
  }

  /** The token by id with its hash and its app's abilities and state; null when unknown. */
  async credential(id: number, tx?: Tx): Promise<CredentialRow | null> {
    const row = await client(tx)
      .from('app_tokens as t')
      .join('apps as a', 'a.id', 't.tokenable_id')
      .where('t.id', id)
      .where('t.type', TOKEN_TYPE)
      .select(COLUMNS.map((column) => `t.${column}`))
      .select('t.hash', 'a.abilities', 'a.disabled_at as app_disabled_at')
      .first()
    if (!row) return null
    return {
      ...rowOf(row),
      hash: row.hash,
      abilities: row.abilities,
      appDisabledAt: instant(row.app_disabled_at),
    }
  }

  /** The token, its row locked until `tx` ends (`for update`); null when unknown. */
  async lock(id: number, tx: Tx): Promise<TokenRow | null> {
    const row = await tokens(tx).where('id', id).select(COLUMNS).forUpdate().first()
    return row ? rowOf(row) : null
  }

  /** How many of the app's tokens still authenticate at `now` (neither revoked nor expired). */
  async countLive(appId: number, now: DateTime, tx?: Tx): Promise<number> {
    const [{ count }] = await live(tokens(tx).where('tokenable_id', appId), now).count('* as count')
    return Number(count)
  }

  /** A page of the app's live tokens, oldest first, and how many there are in all. */
  async livePage(
    appId: number,
    now: DateTime,
    page: { page: number; perPage: number }
  ): Promise<{ rows: TokenRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      live(tokens().where('tokenable_id', appId), now)
        .select(COLUMNS)
        .orderBy('id')
        .limit(page.perPage)
        .offset((page.page - 1) * page.perPage),
      this.countLive(appId, now),
    ])
    return { rows: rows.map(rowOf), total }
  }

  async find(id: number, tx?: Tx): Promise<TokenRow | null> {
    const row = await tokens(tx).where('id', id).select(COLUMNS).first()
    return row ? rowOf(row) : null
  }

  /** The app's tokens, oldest first. */
  async ofApp(appId: number, tx?: Tx): Promise<TokenRow[]> {
    const rows = await tokens(tx).where('tokenable_id', appId).select(COLUMNS).orderBy('id')
    return rows.map(rowOf)
  }

  /** Records a use (authentication calls it at most once a minute per token). */
  async touch(id: number, at: DateTime, tx?: Tx): Promise<void> {
    await tokens(tx).where('id', id).update({ last_used_at: at.toJSDate() })
  }

  /** Revokes one token; a token revoked before keeps its first `revoked_at`. Null: unknown. */
  async revoke(id: number, at: DateTime, tx?: Tx): Promise<TokenRow | null> {
    const [row] = await tokens(tx)
      .where('id', id)
      .update({ revoked_at: db.raw('coalesce(revoked_at, ?)', [at.toJSDate()]) })
      .returning(COLUMNS)
    return row ? rowOf(row) : null
  }

  /** Revokes every token of the app not revoked yet; the ids revoked now. */
  async revokeAllOfApp(appId: number, at: DateTime, tx?: Tx): Promise<number[]> {
    const rows = await tokens(tx)
      .where('tokenable_id', appId)
      .whereNull('revoked_at')
      .update({ revoked_at: at.toJSDate() })
      .returning('id')
    return rows.map((row: { id: number }) => row.id).sort((a: number, b: number) => a - b)
  }

  /** Makes the token expire at `at` at the latest (an earlier expiry stays). Null: unknown. */
  async expireBy(id: number, at: DateTime, tx?: Tx): Promise<TokenRow | null> {
    const [row] = await tokens(tx)
      .where('id', id)
      .update({
        expires_at: db.raw('least(coalesce(expires_at, ?), ?)', [at.toJSDate(), at.toJSDate()]),
      })
      .returning(COLUMNS)
    return row ? rowOf(row) : null
  }
}
