/*
 * Idempotent POSTs (docs/design.md §14, after the IETF httpapi
 * idempotency-key draft). A key is scoped to (app, method, path, key) and
 * lives 24 hours in `idempotency_keys`. The first request with a key claims
 * it (insert … on conflict, so concurrent requests cannot both win); its
 * completed response is kept and replayed to every later request with the
 * same key and body. A claim whose request died (crash, lost connection)
 * lapses after IN_FLIGHT_SECONDS instead of blocking the key for a day.
 */
import { createHash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'

export const IDEMPOTENCY_HEADER = 'Idempotency-Key'
export const REPLAYED_HEADER = 'Idempotent-Replayed'
export const RETENTION_HOURS = 24
/** How long a claim holds the key without a response before another request may take it. */
export const IN_FLIGHT_SECONDS = 60

/** 1..255 visible ASCII characters (%x21-7E). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/

export function validKey(key: string) {
  return VALID_KEY.test(key)
}

/** What identifies "the same request": the SHA-256 of its body bytes. */
export function fingerprint(body: string | null | undefined) {
  return createHash('sha256')
    .update(body ?? '')
    .digest('hex')
}

export type Scope = { appId: number; method: string; path: string; key: string }

export type StoredResponse = {
  status: number
  headers: Record<string, string | number | string[]>
  body: Buffer
  /** Whatever the protected route needs besides the response to replay it (JSON). */
  extra?: Record<string, unknown> | null
}

export type Claim =
  /** This request holds the key; `token` identifies its claim when it completes or releases it. */
  | { kind: 'owner'; token: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' }

const SCOPE = 'app_id = ? and method = ? and path = ? and key = ?'
const scopeValues = (scope: Scope) => [scope.appId, scope.method, scope.path, scope.key]

/**
 * Claims the key, or says what became of its first use. A completed use older
 * than RETENTION_HOURS, or a claim past its `locked_until`, is taken over.
 */
export async function claim(scope: Scope, bodyHash: string): Promise<Claim> {
  // Twice at most: the row seen taken may be cleaned up before it is read.
  for (let attempt = 0; attempt < 2; attempt++) {
    const taken = await db.rawQuery(
      `insert into idempotency_keys (app_id, method, path, key, fingerprint, created_at, locked_until)
       values (?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))
       on conflict (app_id, method, path, key) do update
         set fingerprint = excluded.fingerprint, created_at = excluded.created_at,
             locked_until = excluded.locked_until, response_status = null,
             response_headers = null, response_body = null
         where idempotency_keys.created_at < now() - make_interval(hours => ?)
            or (idempotency_keys.response_status is null and idempotency_keys.locked_until < now())
       returning created_at::text as token`,
      [...scopeValues(scope), bodyHash, IN_FLIGHT_SECONDS, RETENTION_HOURS]
    )
    if (taken.rows.length > 0) return { kind: 'owner', token: taken.rows[0].token }
    const found = await db.rawQuery(
      `select fingerprint, response_status, response_headers, response_body, response_extra
         from idempotency_keys where ${SCOPE}`,
      scopeValues(scope)
    )
    const row = found.rows[0]
    if (!row) continue
    if (row.fingerprint !== bodyHash) return { kind: 'mismatch' }
    if (row.response_status === null) return { kind: 'in-flight' }
    return {
      kind: 'replay',
      response: {
        status: row.response_status,
        headers: row.response_headers,
        body: row.response_body,
        extra: row.response_extra,
      },
    }
  }
  return { kind: 'in-flight' }
}

/** Keeps the completed response of the claim `token` for replay. */
export async function complete(scope: Scope, token: string, response: StoredResponse) {
  await db.rawQuery(
    `update idempotency_keys
        set response_status = ?, response_headers = ?::jsonb, response_body = ?,
            response_extra = ?::jsonb, locked_until = null
      where ${SCOPE} and created_at = ?::timestamptz and response_status is null`,
    [
      response.status,
      JSON.stringify(response.headers),
      response.body,
      response.extra ? JSON.stringify(response.extra) : null,
      ...scopeValues(scope),
      token,
    ]
  )
}

/** Gives the key up (no response worth replaying): the client may retry with it at once. */
export async function release(scope: Scope, token: string) {
  await db.rawQuery(
    `delete from idempotency_keys where ${SCOPE} and created_at = ?::timestamptz and response_status is null`,
    [...scopeValues(scope), token]
  )
}

/** Deletes keys past their 24 hours (the hourly cleanup job). */
export async function pruneIdempotencyKeys() {
  const deleted = await db.rawQuery(
    'delete from idempotency_keys where created_at < now() - make_interval(hours => ?)',
    [RETENTION_HOURS]
  )
  return deleted.rowCount as number
}
