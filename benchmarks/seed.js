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

/**
 * `count` inquiries of the bench agency received `daysAgo` days ago (one a second from then on),
 * shaped as tests/functional/buyers/privacy_figures.spec.ts seeds them: copies of the API-made
 * inquiry (the agency's first) with a distinct buyer each (name, e-mail, phone, document, city,
 * message), their resend window long closed, and each with a copy of that inquiry's deliveries
 * (the bench agency's webhook: its payload holds the buyer's data), delivered. For the retention
 * figure: the retention job empties all of it.
 */
export async function seedOldInquiries(url, count = 100_000, daysAgo = 400) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench' })
  await client.connect()
  try {
    const started = performance.now()
    const {
      rows: [template],
    } = await client.query(
      // The API-made inquiry of setUpLeads (benchmarks/leads.js), the first of all.
      'select id, sid, agency_id from inquiries where id = (select min(id) from inquiries)'
    )
    const inquiries = await client.query(
      `insert into inquiries (sid, app_id, source_app_id, agency_id, kind, origin, external_id, vehicle,
         interest, first_name, last_name, email, phone, document_id, city, comment,
         received_at, resend_open, resend_closes_at)
       select 'R' || lpad(to_hex(g), 9, '0'), t.app_id, t.source_app_id, t.agency_id, t.kind, t.origin,
              t.external_id, t.vehicle, 'Compra', 'Nombre' || g, 'Apellido' || g, 'persona' || g || '@example.com',
              '+54 11 4' || lpad(g::text, 7, '0'), (20000000 + g)::text, 'La Plata',
              'Hola, me interesa el auto. ¿Sigue disponible? ¿Aceptan permuta?',
              now() - make_interval(days => $3) + make_interval(secs => g), false,
              now() - make_interval(days => $3 - 7)
         from generate_series(1, $1) g, (select * from inquiries where id = $2) t`,
      [count, template.id, daysAgo]
    )
    // The template's deliveries materialized first: planned on the stale statistics of a
    // one-row table, a join scanned `deliveries` once per inquiry — its own new rows included
    // (invisible, still read), quadratic: minutes instead of seconds.
    await client.query('analyze inquiries')
    const deliveries = await client.query(
      `insert into deliveries (channel, owner_type, owner_id, app_id, target, status, attempt_count,
         round_attempts, message_id, payload, queue, created_at, delivered_at)
       with d as materialized (
         select * from deliveries where owner_type = 'inquiry' and owner_id = $1::text)
       select d.channel, 'inquiry', i.id::text, d.app_id, d.target, 'delivered', 1, 1,
              'msg_' || i.sid || d.channel, d.payload, d.queue, i.received_at, i.received_at
         from inquiries i, d
        where i.agency_id = $2 and i.sid like 'R%'`,
      [template.id, template.agency_id]
    )
    await client.query('vacuum analyze inquiries')
    await client.query('vacuum analyze deliveries')
    return {
      inquiries: inquiries.rowCount,
      deliveries: deliveries.rowCount,
      daysAgo,
      seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    }
  } finally {
    await client.end()
  }
}
