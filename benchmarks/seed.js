/*
 * Benchmark data, written straight to the tables after migrations: the
 * benchmark measures reads and writes, not the seeding.
 */
import pg from 'pg'
import { ADMIN_MAIL, EXTERNAL_ID } from './dealer.js'

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

/** `count` copies of the API-made listing (SYNC-1 …), a dealer's stock to sync; their paths. */
export async function seedSyncListings(url, count = 500) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench' })
  await client.connect()
  try {
    const columns = (
      await client.query(
        `select column_name from information_schema.columns where table_name = 'listings'
         and column_name not in ('id', 'external_id', 'slug') and is_generated = 'NEVER' and column_default is distinct from 'nextval(''listings_id_seq''::regclass)'`
      )
    ).rows.map((row) => row.column_name)
    await client.query(
      `insert into listings (external_id, slug, ${columns.join(', ')})
       select 'SYNC-' || g, slug || '-sync-' || g, ${columns.join(', ')}
       from listings, generate_series(1, $1) as g
       where admin_email = $2 and lower(external_id) = lower($3)
       on conflict do nothing`,
      [count, ADMIN_MAIL, EXTERNAL_ID]
    )
    // A plan that holds them all, with room left for the photo pipeline's listing.
    await client.query(
      `insert into plans (agency_id, capacity, quota_high, quota_medium, quota_low)
       select agency_id, $1, $1, $1, $1 from listings where lower(external_id) = lower($2) and admin_email = $3
       on conflict (agency_id) do update set capacity = excluded.capacity, quota_high = excluded.quota_high,
         quota_medium = excluded.quota_medium, quota_low = excluded.quota_low`,
      [count + 100, EXTERNAL_ID, ADMIN_MAIL]
    )
    await client.query('analyze listings')
  } finally {
    await client.end()
  }
  return Array.from({ length: count }, (_, i) => `/v3/publicaciones/${ADMIN_MAIL}/SYNC-${i + 1}`)
}
