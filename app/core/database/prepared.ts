/*
 * Hot statements run as named prepared statements on a connection of Lucid's
 * pool (or of the given transaction): PostgreSQL parses and plans each once per
 * connection instead of once per request, and no query builder runs. The name
 * is derived from the text, so one text is one statement. Behind a
 * transaction-mode pooler config/database.ts sends them unnamed.
 */
import { hash } from 'node:crypto'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'

const names = new Map<string, string>()

function nameOf(sql: string) {
  let name = names.get(sql)
  if (!name) {
    name = `p_${hash('sha1', sql, 'base64url')}`
    names.set(sql, name)
  }
  return name
}

/** Rows of `sql` (`$1`… placeholders) with `values`, on `client`'s connection (default: the pool). */
export async function prepared<Row = Record<string, unknown>>(
  sql: string,
  values: unknown[],
  client: QueryClientContract = db.connection()
): Promise<Row[]> {
  // A transaction's knex client hands out that transaction's connection.
  const knexClient = client.getWriteClient().client as any
  const connection = await knexClient.acquireConnection()
  try {
    const result = await connection.query({ name: nameOf(sql), text: sql, values })
    return result.rows
  } finally {
    await knexClient.releaseConnection(connection)
  }
}
