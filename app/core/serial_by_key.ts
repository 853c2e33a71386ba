/**
 * Runs tasks that share a key one after another in this process; tasks with
 * different keys run freely. Writers of one row queue here instead of in
 * PostgreSQL, where the losers of a revision race would retry under a lock.
 */
export class SerialByKey {
  #queues = new Map<string, { tail: Promise<void>; tasks: number }>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let queue = this.#queues.get(key)
    const result = queue ? queue.tail.then(task) : task()
    const tail = result.then(settled, settled)
    if (queue) queue.tail = tail
    else this.#queues.set(key, (queue = { tail, tasks: 0 }))
    queue.tasks++
    const settledQueue = queue
    void tail.then(() => {
      if (--settledQueue.tasks === 0) this.#queues.delete(key)
    })
    return result
  }

  /** Tasks of `key` queued behind the one running (0 when none). */
  waiting(key: string) {
    return Math.max((this.#queues.get(key)?.tasks ?? 0) - 1, 0)
  }

  /** Keys with a task running or queued. */
  get size() {
    return this.#queues.size
  }
}

function settled() {}
