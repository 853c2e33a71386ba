/*
 * pg-boss's statements on the connection of the caller's transaction (a job
 * sent with a write). They are `$n` statements already: they go to the
 * connection as they are, not through knex (pg-boss's `fromKnex` rewrites them
 * to `?` for knex to rewrite back; docs/decisions/performance.md, Performance, "The
 * intake's transaction skips knex's placeholder rewriting"). Infrastructure of
 * the job runner, not domain SQL: it lives beside the pool query.
 */
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { poolQuery } from './pool_query.js'

export function inTransaction(trx: TransactionClientContract) {
  return {
    executeSql: async (text: string, values: unknown[] = []) => ({
      rows: await poolQuery(text, values, { client: trx }),
    }),
  }
}
