/*
 * Intake-like commits of one agency (10 connections, each `begin; insert an
 * inquiry; commit` in a loop) with the hour counter in one row versus in the
 * 16 stripes of the migration 0402, alternated twice in one run: commits/s and
 * commit latency. Runs on the `bench` database `npm run bench` left in
 * tmp/bench-pg (run the bench once first), and leaves the striped trigger in place.
 *
 *   node benchmarks/hour_counters.js     (Node 24: node_modules/.bin/node)
 */
import '@poppinss/ts-exec'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const CONNECTIONS = 10
const SECONDS = 5
const { startCluster } = await import('#core/database/embedded')
const cluster = await startCluster(join(ROOT, 'tmp', 'bench-pg'), [])
const url = new URL(cluster.url('postgres'))
url.pathname = '/bench'

/** The trigger of 0402 with the stripe as an expression: '0' is the single row of 0401. */
const track = (stripe) => `
  create or replace function inquiry_hour_counts_track() returns trigger language plpgsql as $$
  declare own smallint := ${stripe};
  begin
    if tg_op in ('UPDATE', 'DELETE') then
      insert into inquiry_hour_counts as c (agency_id, audience_app_id, hour, stripe, total)
      values (old.agency_id, old.audience_app_id, date_trunc('hour', old.received_at, 'UTC'), own, -1)
      on conflict (agency_id, audience_app_id, hour, stripe) do update set total = c.total - 1;
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
      insert into inquiry_hour_counts as c (agency_id, audience_app_id, hour, stripe, total)
      values (new.agency_id, new.audience_app_id, date_trunc('hour', new.received_at, 'UTC'), own, 1)
      on conflict (agency_id, audience_app_id, hour, stripe) do update set total = c.total + 1;
    end if;
    return null;
  end $$`

const admin = new pg.Client({ connectionString: url.toString() })
await admin.connect()
const columns = (
  await admin.query(
    `select column_name from information_schema.columns where table_name = 'inquiries'
     and column_name not in ('id', 'sid', 'received_at', 'audience_app_id') and is_generated = 'NEVER'`
  )
).rows.map((row) => row.column_name)
const insert = `insert into inquiries (sid, received_at, ${columns.join(', ')})
  select substr(md5(random()::text), 1, 16), now(), ${columns.join(', ')}
  from inquiries where id = (select min(id) from inquiries)`
const clients = await Promise.all(
  Array.from({ length: CONNECTIONS }, async () => {
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    return client
  })
)

async function measure(label) {
  const latencies = []
  const end = Date.now() + SECONDS * 1000
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < end) {
        const started = performance.now()
        await client.query('begin')
        await client.query(insert)
        await client.query('commit')
        latencies.push(performance.now() - started)
      }
    })
  )
  latencies.sort((a, b) => a - b)
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]
  console.log(
    `${label}: ${Math.round(latencies.length / SECONDS)} commits/s, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms`
  )
}

try {
  for (let round = 0; round < 2; round++) {
    await admin.query(track('0'))
    await measure('one row   ')
    await admin.query(track('pg_backend_pid() % 16'))
    await measure('16 stripes')
  }
} finally {
  await Promise.all(clients.map((client) => client.end()))
  await admin.end()
  await cluster.stop()
}
