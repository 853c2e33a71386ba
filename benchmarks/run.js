/*
 * `npm run bench`: builds the service once (`node ace build`) and runs what is
 * deployed — `build/bin/server.js` (web) and `build/ace.js jobs:work` (worker)
 * as separate processes, NODE_ENV=production — then loads it and a bare
 * node:http + pg baseline doing the same work, one after the other in one run
 * against the same database, and prints requests/s, p50/p99 latency and the
 * service/baseline ratio, the CPU each side (with PostgreSQL) spends per
 * request, the intake → webhook latency, the photo pipeline (against sharp
 * alone: the plain recipe, and the service's own), the statements each write
 * runs, table sizes and the peak RSS of both processes. Every figure also goes
 * to tmp/bench/results.json. Each scenario starts on a settled database
 * (`settleWrites`).
 *
 * Database: BENCH_DATABASE_URL, else an embedded PostgreSQL under tmp/bench-pg
 * (statement counts need the embedded one: they read its log). The migrated,
 * catalogue-loaded database is kept as a template (`bench_template`) and reused
 * while the migrations and the bundled catalogue are unchanged.
 * BENCH_SECONDS (default 5) per side and scenario, BENCH_CONNECTIONS (10).
 * BENCH_LEAD_RATE (default 50) inquiries/s for the intake → webhook latency, over
 * BENCH_LEAD_SECONDS (default 30).
 * BENCH_ONLY=<regex> runs only the scenarios (and lead/photo figures) whose name
 * matches, e.g. BENCH_ONLY=listing to compare two commits on the read path.
 * "outbox cost on intake" (issue 14, runs with BENCH_ONLY=intake): the baseline's
 * intake with and without the app_events SQL, the service's intake with the
 * dealer's app subscribed to `consultas` and not, and the outbox statements of
 * an app's own PUT listing (none) — the "outbox cost" table.
 * "retention: lead latency while it runs" (issue 27, runs with BENCH_ONLY=retention): 100 000 inquiries
 * received 400 days ago (BENCH_RETENTION_INQUIRIES), the intake → webhook latency without and while the
 * worker's `privacy.retention` job suppresses them, the p99 ratio (bound 1.5), the inquiries suppressed
 * in the window and the longest batch (retentionUnderLoad).
 * BENCH_SLOW_MS=<ms> logs slower statements and lock waits to the server log, tmp/bench-pg/log/bench.log.
 * BENCH_INSTRUCTIONS=1 counts each measured scenario's instructions per request, the web and the baseline
 * each run again under callgrind (benchmarks/instructions.js): a figure the VM's speed does not move.
 * BENCH_PROFILE=1 writes CPU profiles of the web, worker and baseline to tmp/bench/prof.
 * BENCH_BUILD=0 reuses an existing build/ (only when the code did not change).
 * The built app resolves its packages through build/node_modules, a symlink to
 * the root's node_modules (the same versions `npm ci --omit=dev` would install;
 * dev packages are present but never loaded).
 */
import { spawn, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  mkdirSync,
  openSync,
  writeFileSync,
  readFileSync,
  existsSync,
  rmSync,
  symlinkSync,
  readdirSync,
  statSync,
} from 'node:fs'
import { loadavg, cpus } from 'node:os'
import { createServer } from 'node:net'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { scenarios } from './scenarios.js'
import { seed, seedLarge, seedOldInquiries } from './seed.js'
import {
  SYNC_ROWS,
  SYNC_ROUNDS,
  makeRoom,
  syncThroughput,
  printSyncFigures,
  syncMemory,
  syncStatements,
} from './sync.js'
import { ADMIN_MAIL, call } from './dealer.js'
import {
  INSTRUCTION_COUNTS,
  callgrindAvailable,
  sendRequests,
  underCallgrind,
} from './instructions.js'
import { setUpDealer } from './dealer.js'
import {
  setUpLeads,
  startReceiver,
  intakeToWebhook,
  startPhotoServer,
  servicePhotoThroughput,
  sharpPhotoThroughput,
} from './leads.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const WORK = join(ROOT, 'tmp', 'bench')
const BUILD = join(ROOT, 'build')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
/** BENCH_LEAD_RATE: inquiries/s of the intake → webhook measurement (default 50, the rate). */
const LEAD_RATE = Number(process.env.BENCH_LEAD_RATE ?? 50)
/**
 * BENCH_LEAD_SECONDS: how long it is measured (default 30). PostgreSQL's autovacuum passes
 * over the tables an intake writes about once a minute (autovacuum_naptime) and stalls
 * intakes and deliveries for ≈ 150 ms on two cores: in a 10 s window (500 inquiries, p99 =
 * the 5th slowest) the p99 was that stall or not depending on when the window fell.
 */
const LEAD_SECONDS = Number(process.env.BENCH_LEAD_SECONDS ?? 30)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null
const wanted = (name) => !ONLY || ONLY.test(name)
const OUTBOX_COST = 'outbox cost on intake'
/** Issue 27's figure (runs with BENCH_ONLY=retention); named without "intake" so BENCH_ONLY=intake does not run it. */
const RETENTION = 'retention: lead latency while it runs'
/** BENCH_RETENTION_INQUIRIES: old inquiries the retention job suppresses (default 100 000, the issue's). */
const RETENTION_INQUIRIES = Number(process.env.BENCH_RETENTION_INQUIRIES ?? 100_000)
/** BENCH_LARGE=1: the read scenarios run a second time with 100 000 listings across 1 000 agencies. */
const LARGE = process.env.BENCH_LARGE === '1'
/** BENCH_INSTRUCTIONS=1: each measured scenario's instructions per request, both sides under callgrind. */
const INSTRUCTIONS = process.env.BENCH_INSTRUCTIONS === '1'
/** The outbox statement (app/apps/services/app_events.ts): the event row written and the subscription read, in one. */
const OUTBOX_SQL = /\b(app_events|app_webhooks)\b|^with event as/
const selected = scenarios.filter((scenario) => wanted(scenario.name))
/** The heap flags of the deployment (docs/operations.md, Processes): a bounded young generation, garbage collected early;
 * the worker's smaller still (its peak is sharp's native memory on top of the heap). */
const WEB_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=8']
const WORKER_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=4']
/**
 * The allocator settings of the deployment (docs/operations.md, Processes; `npm start` and `npm run worker` set them too): one
 * glibc arena instead of one per thread (libvips and libuv threads each grew their own), and a fixed 128 KiB mmap
 * threshold so freed decode buffers go back to the system instead of staying in the arena.
 */
const MALLOC_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_TRIM_THRESHOLD_: '131072' }
/** The baseline's flags: none but the profiler's. */
const BASELINE_FLAGS = []
// BENCH_PROFILE=1: the web, the worker and the baseline write a CPU profile to tmp/bench/prof when they exit
// (named `CPU.<date>.<time>.<pid>…`; the web starts first, then the worker, the baseline last).
if (process.env.BENCH_PROFILE === '1') {
  for (const flags of [WEB_FLAGS, WORKER_FLAGS, BASELINE_FLAGS])
    flags.push('--cpu-prof', `--cpu-prof-dir=${join(WORK, 'prof')}`)
}

mkdirSync(WORK, { recursive: true })

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

/** BENCH_SLOW_MS=<ms>: statements slower than that (and lock waits) go to the server log (tmp/bench-pg/log/bench.log). */
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 0)

/** The embedded server's log: its size now, and the lines written since an earlier size. */
const SERVER_LOG = join(ROOT, 'tmp', 'bench-pg', 'log', 'bench.log')
const serverLog = {
  size: () => (existsSync(SERVER_LOG) ? statSync(SERVER_LOG).size : 0),
  since: (offset) =>
    existsSync(SERVER_LOG)
      ? readFileSync(SERVER_LOG).subarray(offset).toString('utf8').split('\n')
      : [],
}

async function database() {
  if (process.env.BENCH_DATABASE_URL)
    return { url: process.env.BENCH_DATABASE_URL, stop: async () => {}, logs: false }
  // The service's own launcher (works as root from a private checkout too); the
  // server logs to tmp/bench-pg/log/bench.log, each line naming its connection's
  // application, so statements of the web process can be told apart.
  await import('@poppinss/ts-exec')
  const { startCluster } = await import('#core/database/embedded')
  try {
    const cluster = await startCluster(join(ROOT, 'tmp', 'bench-pg'), [
      'logging_collector=on',
      'log_directory=log',
      'log_filename=bench.log',
      'log_line_prefix=@%a| ',
      ...(SLOW_MS
        ? [`log_min_duration_statement=${SLOW_MS}`, 'log_lock_waits=on', 'deadlock_timeout=50ms']
        : []),
    ])
    return { url: cluster.url('postgres'), stop: () => cluster.stop(), logs: true }
  } catch (error) {
    if (!error?.operatorMessage) throw error
    console.error(error.message)
    process.exit(1)
  }
}

const databaseUrl = (adminUrl, name) => {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** What the template database is made of: the migrations and the bundled catalogue. */
function templateKey() {
  const hash = createHash('sha1')
  const files = (dir) =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort()
  for (const file of [
    ...files(join(ROOT, 'database')),
    ...files(join(ROOT, 'app', 'catalog')),
    join(ROOT, 'package-lock.json'),
  ]) {
    hash.update(file).update(readFileSync(file))
  }
  return hash.digest('hex')
}

/**
 * What was written so far settles before the next measurement: the bench
 * database vacuumed and analysed (a PUT scenario leaves thousands of dead
 * listing rows, the fill and the intakes thousands of new inquiries, each past
 * autovacuum's threshold), a checkpoint, then the kernel's own flush. So no
 * autovacuum, checkpoint or writeback of one phase's writes lands on the next
 * phase's measurement, whichever side it happens to be measuring.
 */
async function settleWrites(benchUrl) {
  const client = new pg.Client({ connectionString: benchUrl, application_name: 'bench' })
  await client.connect()
  try {
    await client.query('vacuum (analyze)')
    await client.query('checkpoint')
  } finally {
    await client.end()
  }
  execFileSync('sync')
}

/** A fresh `bench` database: a copy of the migrated, catalogue-loaded template (made once). */
async function freshDatabase(adminUrl, env) {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'bench' })
  await client.connect()
  try {
    const key = templateKey()
    const { rows } = await client.query(
      "select shobj_description(oid, 'pg_database') as key from pg_database where datname = 'bench_template'"
    )
    await client.query('drop database if exists bench with (force)')
    if (rows[0]?.key !== key) {
      await client.query('drop database if exists bench_template with (force)')
      await client.query('create database bench_template')
      const templateEnv = { ...env, DATABASE_URL: databaseUrl(adminUrl, 'bench_template') }
      console.log('migrating…')
      ace(templateEnv, 'migration:run', '--force')
      console.log('importing the vehicle catalogue…')
      ace(templateEnv, 'catalog:import')
      await client.query(`comment on database bench_template is '${key}'`)
    }
    await client.query('create database bench template bench_template')
  } finally {
    await client.end()
  }
  return databaseUrl(adminUrl, 'bench')
}

/** `node ace build`, once per run; the build resolves packages through a symlink to the root's node_modules. */
function build() {
  if (process.env.BENCH_BUILD === '0' && existsSync(join(BUILD, 'bin', 'server.js'))) {
    console.log('reusing build/ (BENCH_BUILD=0)')
  } else {
    console.log('building (node ace build)…')
    execFileSync(process.execPath, ['ace', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  if (!existsSync(join(BUILD, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules'), join(BUILD, 'node_modules'), 'dir')
}

function ace(env, ...args) {
  return execFileSync(process.execPath, ['ace.js', ...args], { cwd: BUILD, env, encoding: 'utf8' })
}

/** A process whose stdout (its log lines) goes to tmp/bench/<name>.log. */
function logTo(name) {
  return openSync(join(WORK, `${name}.log`), 'w')
}

function startProcess(command, args, env, readyUrl, cwd = ROOT, log = 'ignore') {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', log, 'inherit'] })
  return waitFor(readyUrl).then(() => child)
}

/**
 * Instructions per request of each measured scenario (benchmarks/instructions.js):
 * a second web process and a second baseline under callgrind, one at a time, on the
 * bench's database; the ratio is baseline / service, read like the throughput ratio.
 */
async function countInstructions(env, ctx, rows) {
  const measured = selected.filter((scenario) => rows.some((row) => row.scenario === scenario.name))
  const sides = {}
  for (const side of ['service', 'baseline']) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const started = await underCallgrind(
      side === 'service'
        ? {
            name: 'the web process',
            args: [...WEB_FLAGS.filter((flag) => !flag.startsWith('--cpu-prof')), 'bin/server.js'],
            cwd: BUILD,
            env: { ...env, ...MALLOC_ENV, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url },
            url,
            readyPath: '/health/live',
            dir: join(WORK, 'callgrind', side),
          }
        : {
            name: 'the baseline',
            args: ['benchmarks/baseline.js'],
            cwd: ROOT,
            env: { ...env, PORT: String(port), BENCH_CONTEXT: join(WORK, 'context.json') },
            url,
            readyPath: '/',
            dir: join(WORK, 'callgrind', side),
          }
    )
    try {
      for (const scenario of measured) {
        if (side === 'baseline' && !scenario.baseline) continue
        const index = scenarios.indexOf(scenario)
        const request = scenario.request(ctx)
        const counted = await started.count((n) =>
          sendRequests(url, request, { 'x-scenario': String(index) }, n)
        )
        sides[scenario.name] = { ...sides[scenario.name], [side]: counted }
      }
    } finally {
      await started.stop()
    }
  }
  return measured.map((scenario) => {
    const { service, baseline } = sides[scenario.name] ?? {}
    const thousands = (side) => (side ? Math.round(side.perRequest / 1000) : '-')
    return {
      'scenario': scenario.name,
      'service k instr/req': thousands(service),
      'service GC %': service ? Number((100 * service.gcShare).toFixed(1)) : '-',
      'baseline k instr/req': thousands(baseline),
      'baseline GC %': baseline ? Number((100 * baseline.gcShare).toFixed(1)) : '-',
      'ratio':
        service && baseline ? Number((baseline.perRequest / service.perRequest).toFixed(2)) : '-',
      // Whether a full collection falls in the counted window moves the totals most.
      'ratio without GC':
        service && baseline
          ? Number(
              (
                (baseline.perRequest * (1 - baseline.gcShare)) /
                (service.perRequest * (1 - service.gcShare))
              ).toFixed(2)
            )
          : '-',
      'statuses': service ? JSON.stringify(service.statuses) : '-',
    }
  })
}

/**
 * The statements one request makes the web process run: PostgreSQL logs every
 * statement for a moment, and the lines of the web's own connections
 * (application name `bench-web`, its pg-boss sender's `jobs-sender` aside) are counted.
 * The request is sent once before, uncounted: the steady state under load, with the
 * process's 5 s memories (credentials, agency lookups) warm.
 */
async function countStatements(adminUrl, send) {
  await send()
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'bench' })
  await client.connect()
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300))
  try {
    await client.query("alter system set log_statement = 'all'")
    await client.query('select pg_reload_conf()')
    await settle()
    const offset = serverLog.size()
    const status = await send()
    await settle()
    const statements = serverLog
      .since(offset)
      .filter(
        (line) => line.startsWith('@bench-web|') && /LOG:\s+(statement|execute [^:]*):/.test(line)
      )
      .map((line) =>
        line
          .replace(/^.*?LOG:\s+(statement|execute [^:]*):\s*/, '')
          .replace(/\s+/g, ' ')
          .slice(0, 160)
      )
    const outbox = statements.filter((statement) => OUTBOX_SQL.test(statement)).length
    return { status, count: statements.length, outbox, statements }
  } finally {
    await client.query('alter system reset log_statement')
    await client.query('select pg_reload_conf()')
    await client.end()
  }
}

/**
 * The statements the worker runs while `send` runs (application name `bench-worker`), each whole
 * (the log's continuation lines joined) with the server's time for it: log_min_duration_statement = 0
 * logs each phase of the extended protocol (parse, bind, execute) with its duration; a statement's
 * `ms` is the sum of its phases. Not sent before: a sync's second run differs.
 */
async function countWorkerStatements(adminUrl, send) {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'bench' })
  await client.connect()
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300))
  try {
    await client.query('alter system set log_min_duration_statement = 0')
    await client.query('select pg_reload_conf()')
    await settle()
    const offset = serverLog.size()
    await send()
    await settle()
    const statements = []
    let open = null
    let pending = 0
    for (const line of serverLog.since(offset)) {
      const match =
        /^@bench-worker\|.*?LOG:\s+duration: ([\d.]+) ms\s+(statement|parse|bind|execute)[^:]*:\s*(.*)$/.exec(
          line
        )
      if (match) {
        const ms = Number(match[1])
        if (match[2] === 'statement' || match[2] === 'execute') {
          open = { text: match[3], ms: ms + pending }
          pending = 0
          statements.push(open)
        } else {
          // parse and bind come before their execute
          pending += ms
          open = null
        }
      } else if (open && !line.startsWith('@')) {
        open.text += ' ' + line.trim()
      } else {
        open = null
      }
    }
    return statements
  } finally {
    await client.query('alter system reset log_min_duration_statement')
    await client.query('select pg_reload_conf()')
    await client.end()
  }
}

/** Table + index + TOAST bytes of the tables that grow with listings and inquiries, and bytes per row. */
async function storage(url) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench' })
  await client.connect()
  try {
    const sizes = {}
    for (const table of [
      'listings',
      'listing_photos',
      'inquiries',
      'deliveries',
      'delivery_attempts',
    ]) {
      const exists = (await client.query('select to_regclass($1) as oid', [table])).rows[0].oid
      if (!exists) continue
      const { rows } = await client.query(
        `select count(*)::int as rows, pg_total_relation_size($1::regclass)::bigint as bytes from ${table}`,
        [table]
      )
      const {
        rows: [r],
      } = { rows }
      sizes[table] = {
        rows: r.rows,
        bytes: Number(r.bytes),
        bytesPerRow: r.rows ? Math.round(Number(r.bytes) / r.rows) : null,
      }
    }
    const { rows } = await client
      .query(
        `select count(*)::int as rows, coalesce(sum(pg_total_relation_size(relid)), 0)::bigint as bytes
       from pg_partition_tree('pgboss.job') where isleaf`
      )
      .catch(() => ({ rows: [] }))
    if (rows[0]) {
      const jobs = (await client.query('select count(*)::int as n from pgboss.job')).rows[0].n
      sizes['pgboss.job'] = {
        rows: jobs,
        bytes: Number(rows[0].bytes),
        bytesPerRow: jobs ? Math.round(Number(rows[0].bytes) / jobs) : null,
      }
    }
    return sizes
  } finally {
    await client.end()
  }
}

async function waitFor(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url)
      if (response.status < 500) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer`)
}

/** Two autocannon results as one: summed counts, the worse latency percentiles. */
function merge(a, b) {
  return {
    requests: { average: (a.requests.average + b.requests.average) / 2 },
    latency: {
      p50: Math.max(a.latency.p50, b.latency.p50),
      p99: Math.max(a.latency.p99, b.latency.p99),
    },
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
    cpuMs: a.cpuMs === null || b.cpuMs === null ? null : a.cpuMs + b.cpuMs,
    postgresCpuMs: a.cpuMs === null || b.cpuMs === null ? null : a.postgresCpuMs + b.postgresCpuMs,
    total: a.requests.total + b.requests.total,
  }
}

/**
 * `load` with the CPU it cost: the answering process's and PostgreSQL's
 * (the embedded one only), so a scenario also has a CPU price per request
 * that other load on the machine barely moves, unlike requests/s.
 */
async function measuredLoad(pid, ...args) {
  const cpu = () => [cpuMs(pid), postgresCpuMs()]
  const before = cpu()
  const result = await load(...args)
  const after = cpu()
  if ([...before, ...after].includes(null)) return { ...result, cpuMs: null }
  const postgres = after[1] - before[1]
  return { ...result, cpuMs: after[0] - before[0] + postgres, postgresCpuMs: postgres }
}

/** CPU ms per request, the process's + PostgreSQL's: "2.10 (1.40 + 0.70)". */
function perRequest(side) {
  if (side.cpuMs === null) return '-'
  const ms = (value) => (value / Math.max(1, side.total)).toFixed(2)
  return `${ms(side.cpuMs)} (${ms(side.cpuMs - side.postgresCpuMs)} + ${ms(side.postgresCpuMs)})`
}

/** A scenario's first (or only) path. */
const firstPath = (request) => request.path ?? request.paths[0]

function load(url, request, scenarioIndex, seconds = SECONDS) {
  let next = 0
  // Several paths: each request takes the next one, round-robin; `nextBody`: a body per request.
  const requests =
    request.paths || request.nextBody
      ? [
          {
            setupRequest: (req) => ({
              ...req,
              ...(request.paths && { path: request.paths[next++ % request.paths.length] }),
              ...(request.nextBody && { body: request.nextBody() }),
            }),
          },
        ]
      : undefined
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + firstPath(request),
        requests,
        method: request.method ?? 'GET',
        headers: { ...request.headers, 'x-scenario': String(scenarioIndex) },
        body: request.body,
        connections: CONNECTIONS,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result))
    )
  })
}

/** Open deliveries (not yet delivered, dead or disabled) of the bench database. */
async function openDeliveries(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench' })
  await client.connect()
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from deliveries where status in ('pending', 'failed')"
    )
    return rows[0].n
  } finally {
    await client.end()
  }
}

/** Until the worker has delivered what the last load queued (at most a minute): each half starts even. */
async function drained(databaseUrl) {
  const deadline = Date.now() + 60_000
  while ((await openDeliveries(databaseUrl)) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 250))
}

/**
 * Issue 14's bound (the outbox costs ≤ 10 % on intake and on PUT listing), in
 * one run, each pair in alternating halves like the scenarios:
 * (a) the baseline's intake without / with the app_events SQL (`x-outbox: 1`);
 * (b) the service's intake with the dealer's app not subscribed / subscribed to
 *     `consultas` (an apps.webhook delivery and its job per inquiry on top of
 *     the event row, delivered by the worker);
 * (c) PUT listing: the app's own write emits no event, so 0 outbox statements.
 * Besides req/s (which a shared machine's load moves), each side's CPU per
 * inquiry: deliveries drain before and after every half, and the processes'
 * CPU over the half and its drain is charged to that side.
 */
async function outboxCost(ctx, urls, pids, receiver, database) {
  const index = scenarios.findIndex((scenario) => scenario.name === 'POST /v3/consultas (intake)')
  const request = scenarios[index].request(ctx)
  const withOutbox = { ...request, headers: { ...request.headers, 'x-outbox': '1' } }
  // PostgreSQL's CPU only when it is the embedded server (its postmaster is known).
  const cpuNow = (which) =>
    which
      .filter((name) => name !== 'postgres' || pids.postgres)
      .map((name) => (name === 'postgres' ? postgresCpuMs() : cpuMs(pids[name])))

  /** Alternating halves without / with (`prepare(false|true)` switches); req/s and CPU ms per inquiry per side. */
  async function compare(url, requests, prepare, which) {
    const runs = { false: [], true: [] }
    const cpu = { false: 0, true: 0 }
    const count = { false: 0, true: 0 }
    for (let round = 0; round < 2; round++) {
      for (const on of [false, true]) {
        await prepare(on)
        await drained(ctx.databaseUrl)
        const before = cpuNow(which)
        const run = await load(url, requests[on], index, SECONDS / 2)
        await drained(ctx.databaseUrl)
        const after = cpuNow(which)
        runs[on].push(run)
        count[on] += run.requests.total
        const used = [...before, ...after].includes(null)
          ? null
          : after.reduce((sum, value, k) => sum + value - before[k], 0)
        cpu[on] = cpu[on] === null || used === null ? null : cpu[on] + used
      }
    }
    const side = (on) => {
      const run = merge(runs[on][0], runs[on][1])
      return {
        reqPerSecond: Math.round(run.requests.average),
        p50: run.latency.p50,
        p99: run.latency.p99,
        errors: run.errors + run.non2xx,
        cpuMsPerInquiry: cpu[on] === null ? null : Number((cpu[on] / count[on]).toFixed(2)),
      }
    }
    const without = side(false)
    const withIt = side(true)
    return {
      cpuOf: which,
      without,
      with: withIt,
      cost: Number((1 - withIt.reqPerSecond / without.reqPerSecond).toFixed(3)),
      cpuCost:
        without.cpuMsPerInquiry && withIt.cpuMsPerInquiry
          ? Number((withIt.cpuMsPerInquiry / without.cpuMsPerInquiry - 1).toFixed(3))
          : null,
    }
  }

  const figures = {}
  console.log('\noutbox cost: loading the intake without and with it…')
  if (urls.baseline) {
    figures.intakeBaselineSql = {
      ...(await compare(urls.baseline, { false: request, true: withOutbox }, async () => {}, [
        'baseline',
        'postgres',
      ])),
      outboxStatements: 1,
    }
  }

  const subscribe = (active) =>
    call(ctx, urls.service, 'PUT', '/v3/appnotificaciones/consultas', {
      Callback: receiver.url,
      Secret: 'bench-events-secret-0123456789',
      Activo: active,
    })
  figures.intakeSubscribed = await compare(
    urls.service,
    { false: request, true: request },
    subscribe,
    ['web', 'worker', 'postgres']
  )
  figures.intakeSubscribed.outboxStatements = null
  if (database.logs) {
    const intakeStatements = () =>
      countStatements(database.url, async () => {
        const response = await fetch(urls.service + request.path, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
        })
        await response.arrayBuffer()
        return response.status
      })
    await subscribe(true)
    const subscribed = await intakeStatements()
    await subscribe(false)
    const unsubscribed = await intakeStatements()
    results.statements['POST /v3/consultas (intake, consultas subscribed)'] = subscribed
    figures.intakeSubscribed.outboxStatements =
      subscribed.outbox + subscribed.count - unsubscribed.count
  }
  await subscribe(false)
  await drained(ctx.databaseUrl)

  const put = results.statements?.['PUT listing']
  figures.putListing = {
    outboxStatements: put ? put.outbox : null,
    cost: put && put.outbox === 0 ? 0 : null,
  }

  const percent = (cost) =>
    cost === null || cost === undefined ? '-' : `${(cost * 100).toFixed(1)} %`
  const row = (label, f) => ({
    'outbox cost': label,
    'req/s without': f.without?.reqPerSecond ?? '-',
    'req/s with': f.with?.reqPerSecond ?? '-',
    'cost (req/s)': percent(f.cost),
    'CPU ms/inquiry without': f.without?.cpuMsPerInquiry ?? '-',
    'CPU ms/inquiry with': f.with?.cpuMsPerInquiry ?? '-',
    'cost (CPU)': percent(f.cpuCost),
    'outbox statements': f.outboxStatements ?? '-',
  })
  const rows = []
  if (figures.intakeBaselineSql)
    rows.push(
      row(
        'intake, baseline SQL: + app_events insert and lookup (CPU: baseline + PostgreSQL)',
        figures.intakeBaselineSql
      )
    )
  rows.push(
    row(
      'intake, service: app subscribed to consultas, + delivery and job (CPU: web + worker + PostgreSQL)',
      figures.intakeSubscribed
    )
  )
  rows.push(
    row("PUT listing, the app's own write: no event", { ...figures.putListing, cpuCost: null })
  )
  console.table(rows)
  return figures
}

/** What a scenario's failing responses were: ten concurrent requests, statuses and one body. */
async function explainErrors(serviceUrl, ctx, name) {
  const request = scenarios.find((scenario) => scenario.name === name).request(ctx)
  const responses = await Promise.all(
    Array.from({ length: 10 }, () =>
      fetch(serviceUrl + firstPath(request), {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      })
    )
  )
  const failed = responses.filter((response) => response.status >= 400)
  console.log(`${name}: statuses ${responses.map((response) => response.status).join(' ')}`)
  if (failed[0]) console.log(`  e.g. ${(await failed[0].text()).slice(0, 300)}`)
}

/** A process's memory now, in MiB: peak so far (VmHWM), resident, and resident anonymous (heap, native buffers) vs file-backed (code). */
function memory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const mib = (field) =>
      Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)[1]) / 1024)
    return { peak: mib('VmHWM'), rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile') }
  } catch {
    return null
  }
}

function peakRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024)
  } catch {
    return null
  }
}

/** CPU milliseconds a process has used (user + system), children it reaped included; null when gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    // utime, stime, cutime, cstime (fields 14–17, in clock ticks of 10 ms).
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) * 10
  } catch {
    return null
  }
}

/** CPU milliseconds of the embedded PostgreSQL: the postmaster (with the backends it reaped) and its live children. */
function postgresCpuMs() {
  try {
    const postmaster = Number(
      readFileSync(join(ROOT, 'tmp', 'bench-pg', 'postmaster.pid'), 'utf8').split('\n')[0]
    )
    let total = cpuMs(postmaster)
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
        if (Number(stat[1]) === postmaster) total += Number(stat[11]) * 10 + Number(stat[12]) * 10
      } catch {}
    }
    return total
  } catch {
    return null
  }
}

/**
 * Issue 27's bound: "the retention job suppresses 100 000 old inquiries in batches whose locks
 * last at most 200 ms each; the intake → webhook p99 while it runs stays within 1.5× of the p99
 * without it". RETENTION_INQUIRIES inquiries of the bench agency, received 400 days ago, each
 * with its webhook delivery (benchmarks/seed.js, seedOldInquiries); on a settled database the
 * intake → webhook latency is measured (LEAD_RATE/s, 2 s warm-up + LEAD_SECONDS); the agency's
 * retention is set to 365 days through the API (PUT /v3/privacidad) and a `privacy.retention` job
 * sent to pg-boss, as its daily schedule sends it, so the bench's worker process runs it; once
 * its first batch has committed the same latency is measured again. Suppressed inquiries are
 * counted from the retention's audit rows (one per batch, `matched`) at the window's start and
 * end; the batch durations come from the worker's own log line of the run (`maxBatchMs`, begin
 * to commit answered; `maxBatchDbMs`, by the server's clock: how long its row locks were held).
 */
async function retentionUnderLoad(ctx, serviceUrl, receiver, pids) {
  const queue = 'privacy.retention'
  console.log(`\n${RETENTION}: seeding ${RETENTION_INQUIRIES} inquiries received 400 days ago…`)
  const seeded = await seedOldInquiries(ctx.databaseUrl, RETENTION_INQUIRIES, 400)
  console.log(seeded)
  const client = new pg.Client({ connectionString: ctx.databaseUrl, application_name: 'bench' })
  await client.connect()
  const audited = async () => {
    const { rows } = await client.query(
      `select count(*)::int as batches, coalesce(sum(matched), 0)::int as erased
         from privacy_audit where source = 'retention'`
    )
    return rows[0]
  }
  const measure = async (label) => {
    const before = [cpuMs(pids.web), cpuMs(pids.worker)]
    const figures = await intakeToWebhook(ctx, serviceUrl, receiver, LEAD_RATE, LEAD_SECONDS)
    const after = [cpuMs(pids.web), cpuMs(pids.worker)]
    console.log(
      `  ${label}: p50 ${figures.p50} ms, p99 ${figures.p99} ms (POST alone ${figures.intakeP50} / ${figures.intakeP99}), ${figures.delivered}/${figures.sent} delivered`
    )
    return {
      ...figures,
      cpuMs: { web: after[0] - before[0], worker: after[1] - before[1] },
      load: loadavg().map((n) => Number(n.toFixed(2))),
    }
  }
  const { PgBoss } = await import('pg-boss')
  const sender = new PgBoss({
    connectionString: ctx.databaseUrl,
    schema: 'pgboss',
    max: 1,
    supervise: false,
    schedule: false,
    migrate: false,
  })
  sender.on('error', () => {})
  try {
    await settleWrites(ctx.databaseUrl)
    console.log(
      `intake → webhook, ${LEAD_RATE} inquiries/s for 2 s of warm-up then ${LEAD_SECONDS} s measured, without and while the retention job runs:`
    )
    const without = await measure('without retention')
    await settleWrites(ctx.databaseUrl)

    // What the app does: the agency's retention through the API, then the job its schedule would send.
    await call(ctx, serviceUrl, 'PUT', `/v3/privacidad/${ADMIN_MAIL}`, { RetencionDias: 365 })
    const logOffset = statSync(join(WORK, 'worker.log')).size
    await sender.start()
    const sentAt = performance.now()
    const jobId = await sender.send(queue, {})
    while ((await audited()).batches === 0) {
      if (performance.now() - sentAt > 60_000) throw new Error('the retention job did not start')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const firstBatchAfterMs = Math.round(performance.now() - sentAt)
    const atStart = await audited()
    const during = await measure('while retention runs')
    const atEnd = await audited()
    const windowEndedMs = performance.now() - sentAt

    // The run's end: the job completed, and the worker's log line about it.
    let state = null
    while (performance.now() - sentAt < 600_000) {
      state = (await client.query('select state from pgboss.job where id = $1', [jobId])).rows[0]
        ?.state
      if (state === 'completed' || state === 'failed') break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const runSeconds = (performance.now() - sentAt) / 1000
    // The worker's logger writes asynchronously: its line may follow the job's completion by a moment.
    const retentionLine = () =>
      readFileSync(join(WORK, 'worker.log'))
        .subarray(logOffset)
        .toString('utf8')
        .split('\n')
        .map((line) => {
          try {
            return JSON.parse(line)
          } catch {
            return null
          }
        })
        .find((line) => line?.msg === 'privacy retention')
    let logged = retentionLine()
    for (let tries = 0; !logged && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      logged = retentionLine()
    }
    const total = await audited()
    const figures = {
      seeded,
      retentionDays: 365,
      jobState: state,
      firstBatchAfterMs,
      runSeconds: Number(runSeconds.toFixed(1)),
      erasedTotal: total.erased,
      batchesTotal: total.batches,
      erasedDuringWindow: atEnd.erased - atStart.erased,
      batchesDuringWindow: atEnd.batches - atStart.batches,
      // The measured window (warm-up included) ran inside the retention run when it ended before it.
      windowInsideRun: windowEndedMs / 1000 <= runSeconds && atEnd.erased < total.erased,
      maxBatchMs: logged?.maxBatchMs ?? null,
      maxBatchDbMs: logged?.maxBatchDbMs ?? null,
      batchesDbOver200Ms: logged?.batchesDbOver200Ms ?? null,
      without,
      during,
      ratioP99: Number((during.p99 / without.p99).toFixed(2)),
      ratioP50: Number((during.p50 / without.p50).toFixed(2)),
    }
    console.table([
      {
        'intake → webhook': 'without retention',
        'p50 ms': without.p50,
        'p99 ms': without.p99,
        'web + worker CPU ms': without.cpuMs.web + without.cpuMs.worker,
        'load': without.load.join(' '),
      },
      {
        'intake → webhook': 'while retention runs',
        'p50 ms': during.p50,
        'p99 ms': during.p99,
        'web + worker CPU ms': during.cpuMs.web + during.cpuMs.worker,
        'load': during.load.join(' '),
      },
      {
        'intake → webhook': 'ratio (target p99 ≤ 1.5)',
        'p50 ms': figures.ratioP50,
        'p99 ms': figures.ratioP99,
      },
    ])
    console.log(
      `retention: ${figures.erasedDuringWindow} inquiries suppressed in ${figures.batchesDuringWindow} batches during the window (${figures.erasedTotal} in ${figures.batchesTotal} in all, ${figures.runSeconds} s from the send, job ${state}); max batch ${figures.maxBatchMs} ms as the worker saw it, ${figures.maxBatchDbMs} ms by the server's clock (${figures.batchesDbOver200Ms} batches over 200 ms)`
    )
    return figures
  } finally {
    await sender.stop({ graceful: false }).catch(() => {})
    await client.end()
  }
}

const results = {
  at: new Date().toISOString(),
  commit: (() => {
    try {
      return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim()
    } catch {
      return null
    }
  })(),
  node: process.version,
  cpus: cpus().length,
  loadBefore: loadavg().map((n) => Number(n.toFixed(2))),
  seconds: SECONDS,
  connections: CONNECTIONS,
}
const saveResults = () =>
  writeFileSync(join(WORK, 'results.json'), JSON.stringify(results, null, 2))

build()
const db = await database()
const children = []
try {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    APP_KEY: 'bench-key-0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DATA_DIR: join(WORK, 'data'),
  }
  const url = await freshDatabase(db.url, env)
  env.DATABASE_URL = url
  rmSync(join(WORK, 'data'), { recursive: true, force: true })
  const created = JSON.parse(
    ace(env, 'app:create', 'bench', '--ability', 'consultas:crear', '--json').replace(/^[^{]*/, '')
  )
  const ctx = { token: created.Token, appId: created.Id, databaseUrl: url }
  console.log('seeding…')
  await seed(url, ctx)

  const servicePort = await freePort()
  const baselinePort = await freePort()
  const serviceUrl = `http://127.0.0.1:${servicePort}`
  const baselineUrl = `http://127.0.0.1:${baselinePort}`
  // PGAPPNAME names the processes' database connections (pg reads it), for the statement counts.
  const service = await startProcess(
    process.execPath,
    [...WEB_FLAGS, 'bin/server.js'],
    {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(servicePort),
      PUBLIC_URL: serviceUrl,
      PGAPPNAME: 'bench-web',
      ...MALLOC_ENV,
    },
    `${serviceUrl}/health/live`,
    BUILD,
    logTo('web')
  )
  children.push(service)
  const worker = spawn(process.execPath, [...WORKER_FLAGS, 'ace.js', 'jobs:work'], {
    cwd: BUILD,
    env: { ...env, PUBLIC_URL: serviceUrl, PGAPPNAME: 'bench-worker', ...MALLOC_ENV },
    stdio: ['ignore', logTo('worker'), 'inherit'],
  })
  children.push(worker)
  console.log('setting up the dealer through the API…')
  await setUpDealer(ctx, serviceUrl, env.DATA_DIR)
  const receiver = await startReceiver()
  // The webhook always; the 100 000 inquiries only for the scenarios that read or add to them.
  const fill = selected.some((scenario) => scenario.name.includes('/v3/consultas'))
  if (fill) console.log('filling the agency with 100 000 inquiries…')
  await setUpLeads(ctx, serviceUrl, url, receiver, fill ? 100_000 : 1)
  ctx.entryPoint = await (
    await fetch(`${serviceUrl}/v3`, { headers: { authorization: `Bearer ${ctx.token}` } })
  ).json()
  for (const scenario of selected) await scenario.setup?.(ctx, serviceUrl)
  writeFileSync(join(WORK, 'context.json'), JSON.stringify(ctx))
  const baseline = await startProcess(
    process.execPath,
    [...BASELINE_FLAGS, 'benchmarks/baseline.js'],
    { ...env, PORT: String(baselinePort), BENCH_CONTEXT: join(WORK, 'context.json') },
    `${baselineUrl}/`
  ).catch(() => null)
  if (baseline) children.push(baseline)

  // Memory of both processes after each phase: which one raised the peak.
  results.memoryMiB = []
  const snapshot = (phase) =>
    results.memoryMiB.push({ phase, web: memory(service.pid), worker: memory(worker.pid) })
  snapshot('set up')

  // The set-up's writes (the database copied from its template, the fill) settle now,
  // not in the middle of the first measurement.
  await settleWrites(ctx.databaseUrl)

  // Measured before the load runs, so the worker has no backlog of their deliveries.
  if (wanted('intake → webhook')) {
    console.log(
      `\nintake → webhook received, ${LEAD_RATE} inquiries/s for 2 s of warm-up then ${LEAD_SECONDS} s measured (separate worker process woken by LISTEN/NOTIFY):`
    )
    const before = [cpuMs(service.pid), cpuMs(worker.pid), db.logs ? postgresCpuMs() : null]
    results.intakeToWebhook = await intakeToWebhook(
      ctx,
      serviceUrl,
      receiver,
      LEAD_RATE,
      LEAD_SECONDS
    )
    // CPU per inquiry (intake, delivery and its recording), which the machine's load does not inflate as it does latency.
    const after = [cpuMs(service.pid), cpuMs(worker.pid), db.logs ? postgresCpuMs() : null]
    const perInquiry = (i) =>
      before[i] === null || after[i] === null
        ? null
        : Number(
            (
              (after[i] - before[i]) /
              (results.intakeToWebhook.sent + LEAD_RATE * results.intakeToWebhook.warmUp.seconds)
            ).toFixed(1)
          )
    results.intakeToWebhook.cpuMsPerInquiry = {
      web: perInquiry(0),
      worker: perInquiry(1),
      postgres: perInquiry(2),
    }
    console.log(results.intakeToWebhook)
    snapshot('intake → webhook')
  }

  // Issue 27: the retention job suppressing 100 000 old inquiries, run by the worker, and the
  // intake → webhook p99 beside it (retentionUnderLoad).
  if (wanted(RETENTION)) {
    results.retention = await retentionUnderLoad(ctx, serviceUrl, receiver, {
      worker: worker.pid,
      web: service.pid,
    })
    snapshot(RETENTION)
  }

  if (wanted('photo pipeline')) {
    const photoServer = await startPhotoServer(8)
    const ourPhotos = await servicePhotoThroughput(ctx, serviceUrl, photoServer.urls)
    const barePhotos = await sharpPhotoThroughput(photoServer.urls)
    // sharp with the service's own recipe (shrink-on-load, thumbnail from the resized image):
    // what the service adds around sharp, its gains over the plain recipe set aside.
    const sameRecipe = await sharpPhotoThroughput(photoServer.urls, { sameRecipe: true })
    photoServer.close()
    const rate = (run) => run.photos / run.seconds
    results.photos = {
      count: photoServer.urls.length,
      bytes: photoServer.bytes,
      servicePerSecond: Number(rate(ourPhotos).toFixed(2)),
      ready: ourPhotos.ready,
      sharpPerSecond: Number(rate(barePhotos).toFixed(2)),
      ratio: Number((rate(ourPhotos) / rate(barePhotos)).toFixed(2)),
      sharpSameRecipePerSecond: Number(rate(sameRecipe).toFixed(2)),
      ratioSameRecipe: Number((rate(ourPhotos) / rate(sameRecipe)).toFixed(2)),
    }
    console.log(
      `\nphoto pipeline, ${photoServer.urls.length} × 12 MP JPEG (${Math.round(photoServer.bytes / 1024)} KiB) over loopback:`
    )
    console.table([
      {
        'side': 'service (POST → all Lista)',
        'photos/s': results.photos.servicePerSecond,
        'ready': ourPhotos.ready,
      },
      { 'side': 'sharp alone (2 at a time)', 'photos/s': results.photos.sharpPerSecond },
      { 'side': 'ratio', 'photos/s': results.photos.ratio },
      {
        'side': "sharp alone, the service's recipe",
        'photos/s': results.photos.sharpSameRecipePerSecond,
      },
      { 'side': 'ratio to it', 'photos/s': results.photos.ratioSameRecipe },
    ])
    snapshot('photo pipeline')
  }

  // Stock sync (issue 26; benchmarks/sync.js): rows/s end to end beside the bare SQL, the web's
  // RSS while it receives a 5 000-row sync, the worker's statements per row.
  if (wanted('sync throughput') && baseline) {
    await makeRoom(ctx.databaseUrl)
    console.log(
      `\nstock sync, ${SYNC_ROWS} rows (0 km, no photos), POST → Terminada vs the bare SQL in one transaction, ${SYNC_ROUNDS} rounds:`
    )
    results.sync = await syncThroughput(
      ctx,
      { service: serviceUrl, baseline: baselineUrl },
      {
        settle: () => settleWrites(ctx.databaseUrl),
        cpu: (which) =>
          which.map((name) =>
            name === 'postgres'
              ? db.logs
                ? postgresCpuMs()
                : null
              : cpuMs({ web: service.pid, worker: worker.pid, baseline: baseline.pid }[name])
          ),
      }
    )
    printSyncFigures(results.sync)
    snapshot('sync throughput')
  }
  if (wanted('sync statements') && db.logs) {
    await makeRoom(ctx.databaseUrl)
    results.syncStatements = await syncStatements(
      ctx,
      serviceUrl,
      (send) => countWorkerStatements(db.url, send),
      () => cpuMs(worker.pid)
    )
    console.log('\nstock sync: statements the worker runs per row (100-row syncs), by kind:')
    for (const [kind, f] of Object.entries(results.syncStatements)) {
      console.log(
        `  ${kind}: ${f.perRow} statements per row (${f.total} in all), PostgreSQL ${f.msPerRow} ms per row; the sync took ${f.seconds} s (${f.workerCpuMsPerRow} worker CPU ms per row)`
      )
      console.table(
        Object.entries(f.byKind).map(([statement, k]) => ({
          statement,
          'per row': k.perRow,
          'server ms per row': k.msPerRow,
        }))
      )
    }
  }
  if (wanted('sync memory')) {
    await makeRoom(ctx.databaseUrl, 5000)
    results.syncMemory = await syncMemory(ctx, serviceUrl, { web: service.pid, worker: worker.pid })
    console.log(
      '\nweb RSS receiving a 5 000-row sync (worker paused; growth = VmHWM after − VmRSS before, MiB):'
    )
    console.table(results.syncMemory)
    snapshot('sync memory')
  }

  /** The scenarios of `list`, each side in alternating halves; a table row each. */
  async function runScenarios(list) {
    const rows = []
    for (const scenario of list) {
      const index = scenarios.indexOf(scenario)
      const request = scenario.request(ctx)
      await settleWrites(ctx.databaseUrl)
      const check = await fetch(serviceUrl + firstPath(request), {
        method: request.method ?? 'GET',
        headers: request.headers,
        body: request.body,
      })
      const expected = scenario.expect ?? 200
      if (check.status !== expected) {
        console.log(`skip ${scenario.name}: service answered ${check.status}, expected ${expected}`)
        continue
      }
      // Alternate the two sides in halves so that background load hits both alike.
      const halves = []
      // The intake's deliveries wait in the queue on both sides (the baseline has no worker of its
      // own; its jobs land in the same queues): the worker is paused over the scenario and drained
      // after it. The worker's part is priced by the intake → webhook figures.
      if (scenario.pausesWorker) process.kill(worker.pid, 'SIGSTOP')
      try {
        // One uncounted second per side first: both measured with their code paths warm.
        await load(serviceUrl, request, index, 1)
        if (scenario.baseline && baseline) await load(baselineUrl, request, index, 1)
        for (let round = 0; round < 2; round++) {
          halves.push(await measuredLoad(service.pid, serviceUrl, request, index, SECONDS / 2))
          halves.push(
            scenario.baseline && baseline
              ? await measuredLoad(baseline.pid, baselineUrl, request, index, SECONDS / 2)
              : null
          )
        }
      } finally {
        if (scenario.pausesWorker) process.kill(worker.pid, 'SIGCONT')
      }
      if (scenario.pausesWorker) await drained(ctx.databaseUrl)
      const ours = merge(halves[0], halves[2])
      const bare = halves[1] ? merge(halves[1], halves[3]) : null
      rows.push({
        'scenario': scenario.name,
        'service req/s': Math.round(ours.requests.average),
        'service p50 ms': ours.latency.p50,
        'service p99 ms': ours.latency.p99,
        'baseline req/s': bare ? Math.round(bare.requests.average) : '-',
        'baseline p50 ms': bare ? bare.latency.p50 : '-',
        'baseline p99 ms': bare ? bare.latency.p99 : '-',
        'ratio': bare ? Number((ours.requests.average / bare.requests.average).toFixed(2)) : '-',
        'service CPU ms/req (own + pg)': perRequest(ours),
        'baseline CPU ms/req (own + pg)': bare ? perRequest(bare) : '-',
        // 304 counts as non-2xx for autocannon; 201 does not.
        'errors': ours.errors + (expected === 304 ? 0 : ours.non2xx),
      })
    }
    return rows
  }
  const rows = await runScenarios(selected)
  results.scenarios = rows
  if (rows.length) snapshot('scenarios')
  for (const row of rows.filter((row) => row.errors > 0))
    await explainErrors(serviceUrl, ctx, row.scenario)
  console.log(`\n${SECONDS}s per side, ${CONNECTIONS} connections, node ${process.version}`)
  console.table(rows)

  // BENCH_LARGE=1: the read scenarios again, after 100 000 listings across 1 000 agencies
  // joined the database (benchmarks/seed.js, seedLarge): both ratios of each read in one run.
  const reads = selected.filter((scenario) => !scenario.request(ctx).method)
  if (LARGE && reads.length) {
    console.log('\nBENCH_LARGE: seeding 100 000 listings across 1 000 agencies…')
    results.large = await seedLarge(ctx.databaseUrl)
    console.log(results.large)
    const large = await runScenarios(reads)
    results.scenariosLarge = large
    console.log(
      `\nread scenarios with ${results.large.listings} listings in ${results.large.agencies} agencies, beside the run above:`
    )
    console.table(
      large.map((row) => {
        const small = rows.find((r) => r.scenario === row.scenario)
        return {
          'scenario': row.scenario,
          'ratio (bench data)': small?.ratio ?? '-',
          'ratio (100 000 listings)': row.ratio,
          'service req/s': `${small?.['service req/s'] ?? '-'} → ${row['service req/s']}`,
          'baseline req/s': `${small?.['baseline req/s'] ?? '-'} → ${row['baseline req/s']}`,
          'service CPU ms/req': `${small?.['service CPU ms/req (own + pg)'] ?? '-'} → ${row['service CPU ms/req (own + pg)']}`,
          'errors': row.errors,
        }
      })
    )
    snapshot('scenarios, large')
  }

  // BENCH_INSTRUCTIONS=1: instructions per request under callgrind, both sides (benchmarks/instructions.js).
  if (INSTRUCTIONS && rows.length) {
    if (!callgrindAvailable()) {
      console.log('\nBENCH_INSTRUCTIONS: valgrind (callgrind) is not installed; skipped')
    } else {
      results.instructions = await countInstructions(env, ctx, rows)
      console.log(
        `\ninstructions per request under callgrind (${INSTRUCTION_COUNTS.counted} counted after ${INSTRUCTION_COUNTS.warm} of warm-up):`
      )
      console.table(results.instructions)
    }
  }

  // What one request of each kind runs in PostgreSQL (the web process's connections only).
  if (db.logs) {
    results.statements = {}
    const counted = {
      'GET listing (full)': () => ({ path: ctx.listingPath }),
      'PUT listing': () => scenarios.find((s) => s.name === 'PUT listing (one row)').request(ctx),
      'POST /v3/consultas (intake)': () =>
        scenarios.find((s) => s.name === 'POST /v3/consultas (intake)').request(ctx),
      'GET /v3/consultas (page 1)': () => ({ path: `/v3/consultas/${ADMIN_MAIL}` }),
      // The catalogue reads: the scenarios' own requests (after their setup).
      ...Object.fromEntries(
        ['GET /v3/marcas?q=toyota', 'GET /v3/modelos/bestmatch', 'GET /v3/versiones?modelo='].map(
          (name) => [name, () => scenarios.find((s) => s.name === name).request(ctx)]
        )
      ),
    }
    for (const [name, make] of Object.entries(counted)) {
      // PUT listing's outbox statements belong to the outbox cost table too.
      const forOutbox = name === 'PUT listing' && wanted(OUTBOX_COST)
      if (!wanted(name.replace(/ \(page 1\)$/, '')) && !forOutbox) continue
      const request = make()
      results.statements[name] = await countStatements(db.url, async () => {
        const response = await fetch(serviceUrl + request.path, {
          method: request.method ?? 'GET',
          headers: { authorization: `Bearer ${ctx.token}`, ...request.headers },
          body: request.body,
        })
        await response.arrayBuffer()
        return response.status
      })
    }
  }

  // Before the statements table: it adds the intake's statements with the app subscribed.
  if (wanted(OUTBOX_COST)) {
    results.outboxCost = await outboxCost(
      ctx,
      { service: serviceUrl, baseline: baseline && baselineUrl },
      { web: service.pid, worker: worker.pid, baseline: baseline?.pid, postgres: db.logs },
      receiver,
      db
    )
  }

  if (results.statements) {
    console.log('\nstatements per request (web process; outbox: app_events / app_webhooks):')
    console.table(
      Object.entries(results.statements).map(([name, { status, count, outbox }]) => ({
        'request': name,
        status,
        'statements': count,
        'of them outbox': outbox,
      }))
    )
  }

  results.storage = await storage(url)
  console.log('\ntable + index sizes:')
  console.table(results.storage)

  receiver.close()
  console.log('\nmemory after each phase, MiB (peak = VmHWM so far; rss = anon + file):')
  console.table(
    results.memoryMiB.flatMap(({ phase, web, worker }) => [
      { phase, process: 'web', ...web },
      { phase, process: 'worker', ...worker },
    ])
  )
  results.peakRssMiB = { web: peakRss(service.pid), worker: peakRss(worker.pid) }
  results.loadAfter = loadavg().map((n) => Number(n.toFixed(2)))
  console.log(
    `peak RSS: web ${results.peakRssMiB.web} MiB, worker ${results.peakRssMiB.worker} MiB; load ${results.loadBefore.join(' ')} → ${results.loadAfter.join(' ')}`
  )
  saveResults()
  console.log(`figures in ${join(WORK, 'results.json')}`)
} finally {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.once('exit', resolve)
          child.kill('SIGINT')
          // A child still up after 5 s (the baseline's pg-boss ignores SIGINT) is killed.
          setTimeout(() => {
            child.kill('SIGKILL')
            resolve()
          }, 5000).unref()
        })
    )
  )
  await db.stop()
}
// Open pools and sockets of the scenarios would keep the run alive after its figures.
process.exit(process.exitCode ?? 0)
