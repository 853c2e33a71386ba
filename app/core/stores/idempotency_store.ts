/*
 * The `idempotency_keys` table (docs/design.md §14). Written-out SQL: the
 * claim is one `insert … on conflict do update … where <expired or lapsed>`
 * that no query builder expresses (docs/decisions/core.md, Core / HTTP,
 * "Idempotency-Key: the claim"), and every POST with a key runs it.
 */
import db from '@adonisjs/lucid/services/db'
import type { Tx } from '#core/database/unit_of_work'

export type IdempotencyScope = { appId: number; method: string; path: string; key: string }

export type IdempotencyRow = {
  fingerprint: string
  responseStatus: number | null
  responseHeaders: Record<string, string | number | string[]> | null
  responseBody: Buffer | null
  responseExtra: Record<string, unknown> | null
}

export type KeptResponse = {
  status: number
  headers: Record<string, string | number | string[]>
  body: Buffer
  extra?: Record<string, unknown> | null
}

const SCOPE = 'app_id = ? and method = ? and path = ? and key = ?'
const scopeValues = (scope: IdempotencyScope) => [scope.appId, scope.method, scope.path, scope.key]

export default class IdempotencyStore {
  /**
   * Takes the key when free, expired (`created_at` older than `retentionHours`) or lapsed
   * (no response, `locked_until` past); its claim token, or null when another use holds it.
   */
  async take(
    scope: IdempotencyScope,
    bodyHash: string,
    limits: { inFlightSeconds: number; retentionHours: number },
    tx?: Tx
  ): Promise<string | null> {
    const taken = await (tx ?? db).rawQuery(
      `insert into idempotency_keys (app_id, method, path, key, fingerprint, created_at, locked_until)
       values (?, ?, ?, ?, ?, now(), now() + make_interval(secs => ?))
       on conflict (app_id, method, path, key) do update
         set fingerprint = excluded.fingerprint, created_at = excluded.created_at,
             locked_until = excluded.locked_until, response_status = null,
             response_headers = null, response_body = null
         where idempotency_keys.created_at < now() - make_interval(hours => ?)
            or (idempotency_keys.response_status is null and idempotency_keys.locked_until < now())
       returning created_at::text as token`,
      [...scopeValues(scope), bodyHash, limits.inFlightSeconds, limits.retentionHours]
    )
    return taken.rows[0]?.token ?? null
  }

  async find(scope: IdempotencyScope, tx?: Tx): Promise<IdempotencyRow | null> {
    const found = await (tx ?? db).rawQuery(
      `select fingerprint, response_status, response_headers, response_body, response_extra
         from idempotency_keys where ${SCOPE}`,
      scopeValues(scope)
    )
    const row = found.rows[0]
    if (!row) return null
    return {
      fingerprint: row.fingerprint,
      responseStatus: row.response_status,
      responseHeaders: row.response_headers,
      responseBody: row.response_body,
      responseExtra: row.response_extra,
    }
  }

  /** Keeps the response of the claim `token` (still without one). */
  async complete(scope: IdempotencyScope, token: string, response: KeptResponse, tx?: Tx) {
    await (tx ?? db).rawQuery(
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

  /** Deletes the claim `token` while it has no response. */
  async release(scope: IdempotencyScope, token: string, tx?: Tx) {
    await (tx ?? db).rawQuery(
      `delete from idempotency_keys where ${SCOPE} and created_at = ?::timestamptz and response_status is null`,
      [...scopeValues(scope), token]
    )
  }

  /**
   * Empties the kept responses that name one of `sids` (docs/design.md §16):
   * a `Location` ending in `/{sid}`, a path `/v3/consultas/{adminmail}/{sid}/…`, or (the
   * buyers' forms, app 0) a flashed confirmation whose `reference` is the sid.
   * How many.
   */
  async forget(sids: string[], tx?: Tx): Promise<number> {
    if (!sids.length) return 0
    // Each row's sid is extracted once and looked up in the list (hashed): linear in the
    // 24 hours of keys, whatever the number of sids (a retention batch names 200).
    const emptied = await (tx ?? db).rawQuery(
      `update idempotency_keys
          set response_body = ''::bytea, response_extra = null
        where regexp_replace(response_headers->>'location', '^.*/', '') = any(?::text[])
           or (path like '/v3/consultas/%' and split_part(path, '/', 5) = any(?::text[]))
           or (app_id = 0 and response_extra is not null and exists (
                select 1 from jsonb_each(response_extra) as flash(name, value)
                 where jsonb_typeof(flash.value) = 'object' and flash.value->>'reference' = any(?::text[])))`,
      [sids, sids, sids]
    )
    return emptied.rowCount as number
  }

  /**
   * Empties the kept responses whose body or extra contains one of `needles`
   * (a buyer's e-mail: a buyers' form answered 400 echoes what was typed, and
   * names no inquiry). At most 24 hours of keys are scanned. How many.
   */
  async forgetContaining(needles: string[], tx?: Tx): Promise<number> {
    const wanted = needles.filter((needle) => needle.length >= 5)
    if (!wanted.length) return 0
    const emptied = await (tx ?? db).rawQuery(
      `update idempotency_keys
          set response_body = ''::bytea, response_extra = null
        where exists (
          select 1 from unnest(?::text[]) as needle(text)
           where position(convert_to(needle.text, 'UTF8') in coalesce(response_body, ''::bytea)) > 0
              or position(needle.text in coalesce(response_extra::text, '')) > 0)`,
      [wanted]
    )
    return emptied.rowCount as number
  }

  /** Deletes keys older than `retentionHours`; how many. */
  async prune(retentionHours: number, tx?: Tx): Promise<number> {
    const deleted = await (tx ?? db).rawQuery(
      'delete from idempotency_keys where created_at < now() - make_interval(hours => ?)',
      [retentionHours]
    )
    return deleted.rowCount as number
  }
}
