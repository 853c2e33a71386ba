/**
 * A small in-process memory of recent answers: an entry lives `ttlMs`, and
 * the whole map is cleared when it grows past `maxEntries` (bounded memory
 * without bookkeeping). Used where a few seconds of staleness across
 * processes is the stated price of a statement saved per request.
 */
export class Recent<V> {
  #entries = new Map<string, { value: V; until: number }>()

  constructor(
    private ttlMs: number,
    private maxEntries = 10_000
  ) {}

  get(key: string): V | undefined {
    const entry = this.#entries.get(key)
    if (!entry) return undefined
    if (entry.until > Date.now()) return entry.value
    this.#entries.delete(key)
    return undefined
  }

  set(key: string, value: V) {
    if (this.#entries.size >= this.maxEntries) this.#entries.clear()
    this.#entries.set(key, { value, until: Date.now() + this.ttlMs })
  }

  clear() {
    this.#entries.clear()
  }
}
