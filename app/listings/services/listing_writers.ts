/*
 * The queue of a listing's writers in this process and the rows they hand on
 * (docs/decisions/performance.md, Performance: "Writers of one listing queue in-process",
 * "An edit hands the row it wrote to the edit queued behind it"). Process-wide
 * state, so the container holds one instance (registered in
 * app/listings/provider.ts); nothing else keeps it.
 */
import { SerialByKey } from '#core/serial_by_key'
import type { ListingRecord } from './listing_record.js'

export default class ListingWriters {
  #queue = new SerialByKey()
  #handed = new Map<string, ListingRecord>()

  /** The key of a listing's writers: app, agency, ExternalId in any case. */
  key(appId: number, agencyId: number, externalId: string) {
    return `${appId} ${agencyId} ${externalId.toLowerCase()}`
  }

  /**
   * Runs `task` after the writers of `key` queued before it, with the row
   * the last of them handed on (taken: used once). Its answer's record is
   * handed to the next writer only while one waits.
   */
  run<T extends { ok: boolean; value?: { record: ListingRecord } }>(
    key: string,
    task: (handed: ListingRecord | undefined) => Promise<T>
  ): Promise<T> {
    return this.#queue.run(key, async () => {
      const handed = this.#handed.get(key)
      this.#handed.delete(key)
      const result = await task(handed)
      if (result.ok && result.value && this.#queue.waiting(key) > 0) {
        this.#handed.set(key, result.value.record)
      }
      return result
    })
  }

  /** Hands `record` to the next writer of `key`, as a finished edit would (tests plant stale rows). */
  hand(key: string, record: ListingRecord) {
    this.#handed.set(key, record)
  }

  /** Whether a row waits to be handed to the next writer of `key`. */
  holds(key: string) {
    return this.#handed.has(key)
  }

  /** Drops the row waiting for `key`, if any. */
  forget(key: string) {
    this.#handed.delete(key)
  }
}
