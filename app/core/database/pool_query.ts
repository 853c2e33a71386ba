/*
 * Hot reads whose SQL is written out run on a connection of Lucid's own pool
 * without the query builder: building and compiling a knex query cost more
 * than PostgreSQL's answer to it (docs/decisions.md, Performance).
 */
import db from '@adonisjs/lucid/services/db'

/**
 * The rows of one statement with `$n` placeholders. With `name`, a named
 * prepared statement: PostgreSQL parses and plans it once per connection
 * (a name always goes with the same text).
 */
export async function poolQuery<Row = Record<string, unknown>>(
  sql: string,
  values: unknown[] = [],
  name?: string
): Promise<Row[]> {
  const client = db.connection().getReadClient().client as any
  const connection = await client.acquireConnection()
  try {
    const result = await connection.query(
      name ? { name, text: sql, values } : { text: sql, values }
    )
    return result.rows
  } finally {
    await client.releaseConnection(connection)
  }
}
