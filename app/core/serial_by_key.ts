/**
 * Runs tasks that share a key one after another in this process; tasks with
 * different keys run freely. Writers of one row queue here instead of in
 * PostgreSQL, where the losers of a revision race would retry under a lock.
 */
export class SerialByKey {
  #tails = new Map<string, Promise<void>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key)
    const result = previous ? previous.then(task) : task()
    const tail = result.then(settled, settled)
    this.#tails.set(key, tail)
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key)
    })
    return result
  }

  /** Keys with a task running or queued. */
  get size() {
    return this.#tails.size
  }
}

function settled() {}
