/*
 * A COMMIT that fails must fail the request. knex 3 resolves
 * `trx.commit()` even when COMMIT fails (the error only rejects the
 * transaction's execution promise, which Lucid never awaits), so a
 * connection dropped at COMMIT time answered 201 for a row that was never
 * stored (seen in tests/functional/core/database_faults.spec.ts). The guard
 * makes the commit reject with the driver's error; the exception handler
 * then answers 503 and the client retries.
 */
import { createRequire } from 'node:module'

type KnexTransaction = {
  _rejecter: (error: unknown) => void
  commit(connection: unknown, value?: unknown): Promise<unknown>
}

const GUARDED = Symbol.for('dealership.commitGuard')

export function guardCommits() {
  // The knex Lucid itself loads (resolved from Lucid's location).
  const require = createRequire(import.meta.resolve('@adonisjs/lucid'))
  const Transaction = require('knex/lib/execution/transaction.js') as {
    prototype: KnexTransaction & Record<symbol, boolean>
  }
  const prototype = Transaction.prototype
  if (prototype[GUARDED]) return
  prototype[GUARDED] = true
  const commit = prototype.commit
  prototype.commit = function (this: KnexTransaction, connection: unknown, value?: unknown) {
    let failure: unknown = null
    const rejecter = this._rejecter
    this._rejecter = (error: unknown) => {
      failure ??= error ?? new Error('COMMIT failed')
      rejecter(error)
    }
    return commit.call(this, connection, value).then((result) => {
      this._rejecter = rejecter
      if (failure) throw failure
      return result
    })
  }
}

guardCommits()
