/*
 * Benchmark data, written straight to the tables after migrations: the
 * benchmark measures reads and writes, not the seeding.
 */
import pg from 'pg'

export async function seed(url, ctx) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // Modules add their data here as they join the benchmark.
    void ctx
  } finally {
    await client.end()
  }
}
