/*
 * Preloaded (`node --import`) into a worker process by a fault test: the
 * process SIGKILLs itself the moment a query hands it the payload of the stock
 * sync row whose ExternalId is DIE_ON_EXTERNAL_ID — a worker that dies on the
 * same row every time, as one whose heap that row exhausts would: no catch,
 * no `finally` runs. Test-only: nothing in the service knows of it.
 */
import { createRequire } from 'node:module'

const target = process.env.DIE_ON_EXTERNAL_ID

if (target) {
  // The same `pg` module Lucid (through knex) and pg-boss load.
  const pg = createRequire(`${process.cwd()}/package.json`)('pg')
  const query = pg.Client.prototype.query
  const check = (result) => {
    for (const row of result?.rows ?? []) {
      if (row?.external_id === target && row.payload) process.kill(process.pid, 'SIGKILL')
    }
  }
  pg.Client.prototype.query = function (...args) {
    const last = args.length - 1
    if (typeof args[last] === 'function') {
      const callback = args[last]
      args[last] = (error, result) => {
        if (!error) check(result)
        callback(error, result)
      }
    }
    const returned = query.apply(this, args)
    if (typeof returned?.then === 'function') returned.then(check, () => {})
    return returned
  }
}
