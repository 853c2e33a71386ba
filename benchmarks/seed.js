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

/**
 * BENCH_LARGE: 100 000 listings across 1 000 agencies — 999 agencies more (large-N@agencia.test), 100
 * listings each, and 99 more in the bench agency (100 with BENCH-1); copies of the API-made listing
 * with their own agency, ExternalId, slug, price and colour, written with `INSERT … SELECT
 * generate_series` in seconds, then analysed. Returns the counts and the seconds it took.
 */
export async function seedLarge(url, agencies = 1000, perAgency = 100) {
  const started = performance.now()
  const client = new pg.Client({ connectionString: url, application_name: 'bench' })
  await client.connect()
  try {
    await client.query(
      `insert into agencies (admin_email, trade_name)
       select 'large-' || g || '@agencia.test', 'Agencia grande ' || g from generate_series(1, $1) as g
       on conflict do nothing`,
      [agencies - 1]
    )
    const columns = (
      await client.query(
        `select column_name from information_schema.columns where table_name = 'listings'
         and column_name not in ('id', 'agency_id', 'admin_email', 'external_id', 'slug', 'price_amount', 'colour')
         and is_generated = 'NEVER'`
      )
    ).rows.map((row) => row.column_name)
    // The other agencies' listings, then the bench agency's.
    await client.query(
      `insert into listings (agency_id, admin_email, external_id, slug, price_amount, colour, ${columns.join(', ')})
       select a.id, a.admin_email, 'LRG-' || g, l.slug || '-lrg-' || a.id || '-' || g,
         l.price_amount + g * 1000, (array['Gris plata', 'Blanco', 'Negro', 'Rojo'])[1 + g % 4],
         ${columns.map((c) => `l.${c}`).join(', ')}
       from listings l
       cross join (select id, admin_email from agencies where admin_email like 'large-%@agencia.test') a
       cross join generate_series(1, $3) as g
       where l.admin_email = $1 and lower(l.external_id) = lower($2)`,
      [ADMIN_MAIL, EXTERNAL_ID, perAgency]
    )
    await client.query(
      `insert into listings (agency_id, admin_email, external_id, slug, price_amount, colour, ${columns.join(', ')})
       select l.agency_id, l.admin_email, 'LRG-' || g, l.slug || '-lrg-' || g,
         l.price_amount + g * 1000, l.colour, ${columns.map((c) => `l.${c}`).join(', ')}
       from listings l cross join generate_series(1, $3) as g
       where l.admin_email = $1 and lower(l.external_id) = lower($2)`,
      [ADMIN_MAIL, EXTERNAL_ID, perAgency - 1]
    )
    await client.query('vacuum (analyze) listings')
    await client.query('analyze agencies')
    const { rows } = await client.query(
      'select count(*)::int as listings, count(distinct agency_id)::int as agencies from listings'
    )
    return { ...rows[0], seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }
  } finally {
    await client.end()
  }
}
