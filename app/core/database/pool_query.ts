/*
 * Hot statements whose SQL is written out run on a connection of Lucid's pool
 * (or of the given transaction) without the query builder: building and
 * compiling a knex query cost more than PostgreSQL's answer to it
 * (docs/decisions/performance.md). With `prepare` the statement is a named
 * prepared one, named after its text: PostgreSQL parses and plans it once per
 * connection. Behind a transaction-mode pooler config/database.ts sends every
 * statement unnamed. `SqlParams` numbers the values of such a statement; every
 * value goes in as a parameter, never into the text.
 */
import { hash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

export type PoolQueryOptions = {
  /** A named prepared statement: for statements whose plan does not depend on the values. */
  prepare?: boolean
  /** Run on this client's connection (a transaction's); default: the pool. */
  client?: QueryClientContract
}

/** The values of a statement written out: `add` keeps one and gives its placeholder. */
export class SqlParams {
  readonly values: unknown[] = []

  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/** `where` of `conditions` (none: empty). */
export function whereOf(conditions: string[]): string {
  return conditions.length > 0 ? ` where ${conditions.join(' and ')}` : ''
}

const names = new Map<string, string>()

function nameOf(sql: string) {
  let name = names.get(sql)
  if (!name) {
    name = `p_${hash('sha1', sql, 'base64url')}`
    names.set(sql, name)
  }
  return name
}

/** The rows of one statement with `$n` placeholders. */
export async function poolQuery<Row = Record<string, unknown>>(
  sql: string,
  values: unknown[] = [],
  options: PoolQueryOptions = {}
): Promise<Row[]> {
  // A transaction's knex client hands out that transaction's connection.
  const knexClient = (options.client ?? db.connection()).getWriteClient().client as any
  const connection = await knexClient.acquireConnection()
  try {
    const query = options.prepare ? { name: nameOf(sql), text: sql, values } : { text: sql, values }
    const result = await connection.query(query)
    return result.rows
  } finally {
    await knexClient.releaseConnection(connection)
  }
}
