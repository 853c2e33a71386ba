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
import { inject } from '@adonisjs/core'
import type { Tx } from '#core/database/unit_of_work'
import IdempotencyStore, {
  type IdempotencyScope,
  type KeptResponse,
} from '#core/stores/idempotency_store'

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

export type Scope = IdempotencyScope

/** A kept response; `extra`: whatever the protected route needs besides it to replay it (JSON). */
export type StoredResponse = KeptResponse

export type Claim =
  /** This request holds the key; `token` identifies its claim when it completes or releases it. */
  | { kind: 'owner'; token: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' }

const LIMITS = { inFlightSeconds: IN_FLIGHT_SECONDS, retentionHours: RETENTION_HOURS }

/** The keys' life: claim, complete or release, prune (the SQL is IdempotencyStore's). */
@inject()
export default class Idempotency {
  constructor(private store: IdempotencyStore) {}

  /**
   * Claims the key, or says what became of its first use. A completed use older
   * than RETENTION_HOURS, or a claim past its `locked_until`, is taken over.
   */
  async claim(scope: Scope, bodyHash: string): Promise<Claim> {
    // Twice at most: the row seen taken may be cleaned up before it is read.
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await this.store.take(scope, bodyHash, LIMITS)
      if (token !== null) return { kind: 'owner', token }
      const row = await this.store.find(scope)
      if (!row) continue
      if (row.fingerprint !== bodyHash) return { kind: 'mismatch' }
      if (row.responseStatus === null) return { kind: 'in-flight' }
      return {
        kind: 'replay',
        response: {
          status: row.responseStatus,
          headers: row.responseHeaders ?? {},
          body: row.responseBody ?? Buffer.alloc(0),
          extra: row.responseExtra,
        },
      }
    }
    return { kind: 'in-flight' }
  }

  /** Keeps the completed response of the claim `token` for replay. */
  complete(scope: Scope, token: string, response: StoredResponse) {
    return this.store.complete(scope, token, response)
  }

  /** Gives the key up (no response worth replaying): the client may retry with it at once. */
  release(scope: Scope, token: string) {
    return this.store.release(scope, token)
  }

  /**
   * Empties the kept responses about the inquiries `sids` (their Location,
   * their paths, the buyers' forms' confirmations): a buyer's data suppressed
   * (docs/design.md §16). In `trx` when given.
   */
  forget(sids: string[], trx?: Tx) {
    return this.store.forget(sids, trx)
  }

  /** Empties the kept responses containing one of `needles` (a buyer's e-mail), in `trx` when given. */
  forgetContaining(needles: string[], trx?: Tx) {
    return this.store.forgetContaining(needles, trx)
  }

  /** Deletes keys past their 24 hours (the hourly cleanup job); how many. */
  prune() {
    return this.store.prune(RETENTION_HOURS)
  }
}
