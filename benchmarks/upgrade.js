/*
 * `npm run test:upgrade [--from REV]`: an upgrade without a gap, rehearsed on 127.0.0.1
 * (docs/operations.md "Upgrading", docs/design.md §22).
 *
 *   REV (default: the parent of the last commit that added a migration file) and HEAD (the
 *   working tree) are built: REV from `git archive` into tmp/upgrade/rev, node_modules linked
 *   to the root's; HEAD into build/.
 *   A fresh embedded PostgreSQL (tmp/upgrade-pg) with log_lock_waits (deadlock_timeout 100 ms).
 *   REV's built web and worker behind a small TCP front (what a load balancer does: new
 *   connections go to the current web process), with data made through the API: an agency
 *   with a webhook, listings with photos (a local server of real JPEGs), inquiries.
 *   Load: listing GETs, PUTs, intake at 20/s (each with an Idempotency-Key), photo fetches,
 *   and one 1 000-row stock sync.
 *   While REV serves: HEAD's migrations; then HEAD's web started, the front switched to it and
 *   REV's web SIGTERMed; then HEAD's worker started and REV's worker SIGTERMed.
 *   Then REV's functional API tests (a focused subset, UPGRADE_TESTS) on a second database
 *   migrated by HEAD: the previous build's behaviour on the new schema.
 *
 * Bounds (each a check; the last line is Japa's `Tests  N passed, M failed` for .ci/run):
 * 0 × 5xx and 0 failed connections, every accepted inquiry delivered with one webhook-id
 * (0 lost, 0 duplicated), the sync Terminada, the longest lock wait of a web/worker
 * connection ≤ 1 s (PostgreSQL's "acquired … after N ms"), REV's app tokens valid on HEAD.
 *
 * UPGRADE_SEED_LOCK_TABLE=1 adds to HEAD's build a migration that takes `lock table
 * inquiries` and holds it 3 s (a backfill): the run must then fail. UPGRADE_SKIP_BUILD=1
 * reuses both builds while iterating.
 */
import { spawn, execFileSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer, connect } from 'node:net'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { inventory } from './sync.js'
import {
  ROOT,
  log,
  sleep,
  check,
  cleanups,
  freePort,
  launch,
  stop,
  until,
  ace,
  startWeb,
  startWorker,
  request as fetchOnce,
  startPostgres,
  sql,
  writeCatalog,
  listingBody,
  startReceivers,
  registerAgency,
  planAgency,
  inquiryBody,
  serviceEnv,
  run,
} from './harness.js'

const WORK = join(ROOT, 'tmp', 'upgrade')
const REV_DIR = join(WORK, 'rev')
const ADMIN_MAIL = 'upgrade@agencia.test'
const SYNC_ROWS = 1000
const INTAKE_PER_SECOND = 20
const LISTINGS = 10
const MAX_LOCK_WAIT_MS = 1000
const HARD_TIMEOUT_MS = Number(process.env.UPGRADE_TIMEOUT_SECONDS ?? 420) * 1000
const SEED_LOCK_TABLE = process.env.UPGRADE_SEED_LOCK_TABLE === '1'
const SKIP_BUILD = process.env.UPGRADE_SKIP_BUILD === '1'
/** REV's functional tests run on HEAD's schema: the API's main paths (≈ 1 min). */
const REV_TESTS = (
  process.env.UPGRADE_TESTS ??
  'tests/functional/listings/crud.spec.ts tests/functional/listings/sync.spec.ts tests/functional/leads/intake.spec.ts tests/functional/leads/reading.spec.ts tests/functional/agencies/agencies.spec.ts tests/functional/apps/credentials.spec.ts'
)
  .split(/\s+/)
  .filter(Boolean)

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim()

/** How long REV's web and worker may take to finish what they hold after SIGTERM. */
const STOP_WAIT_MS = 40_000

/** The load balancer: each new connection goes to the web process of the moment. */
async function startFront() {
  const port = await freePort()
  let backend = null
  const sockets = new Set()
  const server = createServer((client) => {
    const upstream = connect(backend, '127.0.0.1')
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.pipe(upstream).pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end)
    upstream.on('error', end)
    upstream.on('close', end)
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(resolve)
      })
  )
  return { url: `http://127.0.0.1:${port}`, route: (to) => (backend = to) }
}

// ---- HTTP ---------------------------------------------------------------------------
/** Every answer of the load and of the checks, for the figures. */
const answers = []

/**
 * fetch, once more when the connection it picked was closed under it (an old web process
 * closing idle keep-alive connections on SIGTERM: the request never reached it). Writes
 * carry an Idempotency-Key, so a second try is safe in any case.
 */
const request = (url, init) => fetchOnce(url, init, ['UND_ERR_SOCKET', 'ECONNRESET'])

async function call(base, token, method, path, body, headers = {}, kind = 'setup') {
  const begun = performance.now()
  let status = 0
  let text = ''
  let responseHeaders = new Headers()
  try {
    const response = await request(base + path, {
      method,
      headers: {
        'authorization': `Bearer ${token}`,
        'content-type': 'application/json',
        'accept': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    status = response.status
    responseHeaders = response.headers
    text = await response.text()
  } catch (error) {
    text = String(error?.cause?.code ?? error)
  }
  const ms = performance.now() - begun
  answers.push({
    kind,
    method,
    path,
    status,
    at: begun,
    ms,
    text: status >= 500 || status === 0 ? text.slice(0, 300) : '',
  })
  let parsed = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {}
  return { status, headers: responseHeaders, body: parsed, text }
}

async function mustCall(...args) {
  const result = await call(...args)
  if (result.status >= 300 || result.status === 0)
    throw new Error(`${args[2]} ${args[3]} → ${result.status}: ${result.text.slice(0, 500)}`)
  return result
}

// ---- REV and the builds ---------------------------------------------------------------
function defaultRev() {
  // The last commit that added a migration file, and its first parent.
  const added = git(
    'log',
    '-1',
    '--diff-filter=A',
    '--format=%H',
    'HEAD',
    '--',
    'database/migrations/'
  )
  if (!added) throw new Error('no commit added a migration: pass --from REV')
  return git('rev-parse', '--verify', `${added}^`)
}

/** `node ace build` in `cwd`; the two builds run side by side (tsc uses one core each). */
function aceBuild(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['ace', 'build'], {
      cwd,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`node ace build in ${cwd} exited ${code}`))
    )
  })
}

async function buildRev(rev) {
  if (SKIP_BUILD && existsSync(join(REV_DIR, 'build', 'bin', 'server.js'))) return
  rmSync(REV_DIR, { recursive: true, force: true })
  mkdirSync(REV_DIR, { recursive: true })
  // A plain copy of REV's tree: no worktree to register in the repository.
  execFileSync('sh', ['-c', `git archive --format=tar ${rev} | tar -x -C "${REV_DIR}"`], {
    cwd: ROOT,
  })
  symlinkSync(join(ROOT, 'node_modules'), join(REV_DIR, 'node_modules'))
  await aceBuild(REV_DIR)
}

async function buildHead() {
  if (!SKIP_BUILD || !existsSync(join(ROOT, 'build', 'bin', 'server.js'))) await aceBuild(ROOT)
  const seeded = join(ROOT, 'build', 'database', 'migrations', '9999_seeded_lock_table.js')
  rmSync(seeded, { force: true })
  if (SEED_LOCK_TABLE)
    // What the lint refuses, in the build only (never in the source tree): the proof that the run fails.
    writeFileSync(
      seeded,
      `import { BaseSchema } from '@adonisjs/lucid/schema'
export default class extends BaseSchema {
  async up() {
    this.schema.raw('lock table inquiries in share row exclusive mode')
    this.schema.raw('select pg_sleep(3)')
  }
  async down() {}
}
`
    )
}

/** REV's test bootstrap drops and re-migrates the schema; here it keeps HEAD's. */
function keepSchemaInRevTests() {
  const file = join(REV_DIR, 'tests', 'bootstrap.ts')
  const source = readFileSync(file, 'utf8')
  const marker = '// test:upgrade keeps the schema'
  if (source.includes(marker)) return
  const setup = /\n {2}setup: \[[\s\S]*?\n {2}\],\n {2}teardown: \[\],/
  if (!setup.test(source))
    throw new Error(
      `REV's tests/bootstrap.ts has another shape: cannot run its tests on HEAD's schema`
    )
  writeFileSync(
    file,
    source.replace(
      setup,
      `\n  setup: [async () => { await db.rawQuery('drop schema if exists pgboss cascade') }], ${marker}\n  teardown: [],`
    )
  )
}

// ---- PostgreSQL's lock waits ----------------------------------------------------------
function lockWaits(logDir) {
  const waits = []
  let files = []
  try {
    files = readdirSync(logDir)
  } catch {}
  for (const file of files) {
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const match =
        /\] ([^:]*): LOG: {2}process \d+ (acquired|still waiting for) (\S+ on .*?) after ([\d.]+) ms/.exec(
          line
        )
      if (match)
        waits.push({
          app: match[1],
          done: match[2] === 'acquired',
          lock: match[3],
          ms: Number(match[4]),
        })
    }
  }
  return waits
}

// ---- run ------------------------------------------------------------------------------
await run('test:upgrade', { timeoutMs: HARD_TIMEOUT_MS, tailLines: 60 }, async () => {
  const fromFlag = process.argv.indexOf('--from')
  const rev = git(
    'rev-parse',
    '--verify',
    `${fromFlag > 0 ? process.argv[fromFlag + 1] : defaultRev()}^{commit}`
  )
  const revMigrations = git('ls-tree', '--name-only', `${rev}:database/migrations`).split(
    '\n'
  ).length
  const headMigrations = readdirSync(join(ROOT, 'database', 'migrations')).length
  log(
    `REV ${rev.slice(0, 10)} (${revMigrations} migrations) → HEAD (working tree, ${headMigrations}${SEED_LOCK_TABLE ? ' + a seeded `lock table inquiries`' : ''}); building both…`
  )
  mkdirSync(WORK, { recursive: true })
  await Promise.all([buildRev(rev), buildHead()])
  const revBuild = join(REV_DIR, 'build')
  const headBuild = join(ROOT, 'build')
  log('builds ready; PostgreSQL, receivers, SMTP sink, photo server…')

  const pgDir = join(ROOT, 'tmp', 'upgrade-pg')
  rmSync(pgDir, { recursive: true, force: true })
  const cluster = await startPostgres(pgDir, [
    'max_connections=200',
    'log_lock_waits=on',
    'deadlock_timeout=100ms',
    'logging_collector=on',
    'log_directory=log',
    'log_line_prefix=%m [%p] %a: ',
  ])
  const adminUrl = cluster.url('postgres')
  await sql(adminUrl, 'create database upgrade')
  await sql(adminUrl, 'create database upgrade_tests')
  const dbUrl = cluster.url('upgrade')
  const testsDbUrl = cluster.url('upgrade_tests')

  const { smtpPort, sink, hooks, photoServer } = await startReceivers(
    ['#9aa3ad', '#b22222'],
    800,
    600
  )
  const front = await startFront()
  const dataDir = join(WORK, 'data')
  rmSync(dataDir, { recursive: true, force: true })
  const base = serviceEnv(
    {
      APP_KEY: 'upgrade-test-key-0123456789abcdef01234567',
      PUBLIC_URL: front.url,
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      SMTP_PORT: String(smtpPort),
    },
    ['JOBS_DATABASE_URL', 'DATABASE_POOLER', 'METRICS_PORT', 'DRIVE_DISK']
  )
  const env = (app) => ({ ...base, PGAPPNAME: app })

  log("REV: migrations, catalogue, apps; REV's web and worker…")
  await ace(revBuild, env('rev-migrate'), 'migration:run', '--force')
  const catalogFile = join(WORK, 'catalog.json')
  writeCatalog(catalogFile, [{ code: 'ARS', name: 'Peso argentino' }])
  // A command's --json answer is its last line (log lines may come before it).
  const json = (output) =>
    JSON.parse(
      output
        .trim()
        .split('\n')
        .findLast((line) => line.startsWith('{'))
    )
  const [, main, spare, revWeb, revWorker] = await Promise.all([
    ace(revBuild, env('rev-ace'), 'catalog:import', catalogFile),
    ace(
      revBuild,
      env('rev-ace'),
      'app:create',
      'upgrade',
      '--ability',
      'consultas:crear',
      '--json'
    ).then(json),
    ace(revBuild, env('rev-ace'), 'app:create', 'spare', '--json').then(json),
    startWeb('REV web', revBuild, env('rev-web')),
    startWorker('REV worker', revBuild, env('rev-worker')),
  ])
  front.route(revWeb.port)
  const api = (method, path, body, headers, kind) =>
    call(front.url, main.Token, method, path, body, headers, kind)
  const must = (method, path, body) => mustCall(front.url, main.Token, method, path, body)

  log('data through the API: agency, plan, webhook, listings with photos…')
  await registerAgency((i, path, body) => must('POST', path, body), sink, ADMIN_MAIL, 'Upgrade')
  await planAgency(revBuild, env('rev-ace'), ADMIN_MAIL, SYNC_ROWS + LISTINGS + 50)
  await must('PUT', `/v3/notificaciones/${ADMIN_MAIL}`, {
    PublicacionConsultadaWebHook: {
      Callback: hooks.url('/webhook'),
      Secret: 'upgrade-secret-0123456789',
      Activo: true,
    },
  })
  const externalIds = Array.from({ length: LISTINGS }, (_, i) => `UPG-${i}`)
  for (const [i, externalId] of externalIds.entries())
    await must(
      'POST',
      `/v3/publicaciones/${ADMIN_MAIL}`,
      listingBody(externalId, {
        Fotos: [photoServer.url(`/l${i}-0.jpg`), photoServer.url(`/l${i}-1.jpg`)],
      })
    )
  const photoUrls = await until(
    async () => (await api('GET', `/v3/publicaciones/${ADMIN_MAIL}/UPG-0`)).body?.Fotos ?? [],
    (urls) => urls.length === 2,
    60_000,
    "REV's worker to process the photos"
  )
  check(
    (await call(front.url, spare.Token, 'GET', '/v3')).status === 200,
    "REV's app tokens work on REV"
  )

  // ---- load, in the background until `loading` is false ----------------------------------
  let loading = true
  const buyers = []
  const intakeStatuses = []
  let intakeSeconds = 0
  const loops = []
  const loop = (task) =>
    loops.push(
      (async () => {
        for (let i = 0; loading; i++) await task(i)
      })()
    )
  loop(async (i) => {
    await api(
      'GET',
      `/v3/publicaciones/${ADMIN_MAIL}/${externalIds[i % LISTINGS]}`,
      undefined,
      {},
      'get'
    )
  })
  loop(async (i) => {
    // Not UPG-0, whose photos the photo loop fetches.
    const externalId = externalIds[1 + ((i * 3) % (LISTINGS - 1))]
    await api(
      'PUT',
      `/v3/publicaciones/${ADMIN_MAIL}/${externalId}`,
      listingBody(externalId, { Kilometraje: 48000 + i }),
      {},
      'put'
    )
  })
  loop(async (i) => {
    const url = photoUrls[i % photoUrls.length]
    const begun = performance.now()
    let status = 0
    try {
      const response = await request(url)
      await response.arrayBuffer()
      status = response.status
    } catch {}
    answers.push({
      kind: 'photo',
      method: 'GET',
      path: url,
      status,
      at: begun,
      ms: performance.now() - begun,
      text: '',
    })
  })
  // Intake at 20/s, paced by the clock, each POST with its own Idempotency-Key.
  const intake = (async () => {
    const begun = performance.now()
    const pending = []
    let inFlight = 0
    for (let n = 0; loading; n++) {
      const due = begun + (n * 1000) / INTAKE_PER_SECOND
      if (due > performance.now()) await sleep(due - performance.now())
      // At most a second's worth in flight: a machine too slow for 20/s gets less, not a queue.
      while (inFlight >= INTAKE_PER_SECOND) await sleep(5)
      inFlight++
      const buyer = `comprador-${n}-${randomUUID().slice(0, 8)}@example.com`
      pending.push(
        api(
          'POST',
          `/v3/consultas/${ADMIN_MAIL}`,
          inquiryBody(externalIds[n % LISTINGS], buyer),
          { 'idempotency-key': randomUUID() },
          'intake'
        ).then((result) => {
          inFlight--
          intakeStatuses.push(result.status)
          if (result.status === 201) buyers.push(buyer)
        })
      )
    }
    await Promise.all(pending)
    intakeSeconds = (performance.now() - begun) / 1000
  })()

  log('load on REV: listing GETs, PUTs, photo fetches, intake at 20/s; a 1 000-row sync…')
  await sleep(2000)
  const syncPosted = await api(
    'POST',
    `/v3/publicaciones/${ADMIN_MAIL}/sincronizaciones`,
    { Modo: 'Parcial', Publicaciones: inventory('UPS-', SYNC_ROWS) },
    { 'idempotency-key': randomUUID() },
    'sync'
  )
  check(
    syncPosted.status === 202,
    'the 1 000-row sync accepted by REV (202)',
    syncPosted.text.slice(0, 300)
  )
  const syncPath = new URL(syncPosted.headers.get('location') ?? '/', front.url).pathname
  await sleep(1000)

  // The runbook's first step: what the pending migrations lock.
  const { pending } = json(await ace(headBuild, env('head-check'), 'migration:check', '--json'))
  log(`HEAD's pending migrations (migration:check): ${pending.length}`)
  for (const migration of pending)
    console.log(
      `    ${migration.name}: ${migration.locks.map((lock) => `${lock.table} ${lock.level}`).join(', ') || 'no table'}`
    )
  log("HEAD's migrations while REV serves…")
  const migrationBegun = performance.now()
  let migrated = true
  try {
    await ace(headBuild, env('head-migrate'), 'migration:run', '--force')
  } catch (error) {
    migrated = false
    console.log(`    ${String(error.message).split('\n').slice(0, 6).join('\n    ')}`)
  }
  const migrationEnded = performance.now()
  check(
    migrated,
    `HEAD's migrations ran under load (${((migrationEnded - migrationBegun) / 1000).toFixed(1)} s)`
  )
  await sleep(1000)

  log("web: HEAD's started, the front switched to it, REV's SIGTERMed…")
  const headWeb = await startWeb('HEAD web', headBuild, env('head-web'))
  front.route(headWeb.port)
  const revWebExit = await stop(revWeb, STOP_WAIT_MS)
  check(revWebExit.code === 0, `REV's web exited 0 after SIGTERM (${JSON.stringify(revWebExit)})`)
  await sleep(2000)

  log("worker: HEAD's started, REV's SIGTERMed…")
  await startWorker('HEAD worker', headBuild, env('head-worker'))
  const revWorkerExit = await stop(revWorker, STOP_WAIT_MS)
  check(
    revWorkerExit.code === 0,
    `REV's worker exited 0 after SIGTERM (${JSON.stringify(revWorkerExit)})`
  )
  await sleep(3000)
  loading = false
  await Promise.all([...loops, intake])

  log('load stopped; waiting for the sync and the webhooks…')
  let syncState = null
  try {
    syncState = await until(
      async () => (await api('GET', syncPath)).body,
      (state) => state?.Estado === 'Terminada' || state?.Estado === 'Fallida',
      90_000,
      'the sync'
    )
  } catch {
    syncState = (await api('GET', syncPath)).body
  }
  const idsOf = () => {
    const per = new Map()
    for (const hook of hooks.requests) {
      const buyer = /comprador-\d+-[0-9a-f]{8}@example\.com/.exec(hook.body)?.[0]
      if (!buyer) continue
      if (!per.has(buyer)) per.set(buyer, new Set())
      per.get(buyer).add(hook.headers['webhook-id'])
    }
    return per
  }
  let ids = idsOf()
  try {
    await until(
      () => (ids = idsOf()),
      (per) => buyers.every((buyer) => per.has(buyer)),
      60_000,
      'every lead delivered'
    )
  } catch {}
  const lost = buyers.filter((buyer) => !ids.has(buyer))
  const duplicated = buyers.filter((buyer) => (ids.get(buyer)?.size ?? 0) > 1)
  const revTokens = [main, spare]
  const tokensValid = (
    await Promise.all(
      revTokens.map((app) => call(front.url, app.Token, 'GET', '/v3').then((r) => r.status === 200))
    )
  ).filter(Boolean).length

  // ---- figures -------------------------------------------------------------------------
  const loadAnswers = answers.filter((answer) => answer.kind !== 'setup')
  const serverErrors = answers.filter((answer) => answer.status >= 500)
  const noAnswer = answers.filter((answer) => answer.status === 0)
  const waits = lockWaits(join(pgDir, 'log')).filter((wait) => !/migrate/.test(wait.app))
  const longestWait = waits.reduce((max, wait) => Math.max(max, wait.ms), 0)
  // The log names relations by oid: their names, for the report.
  const oids = [...new Set(waits.flatMap((wait) => /relation (\d+)/.exec(wait.lock)?.[1] ?? []))]
  const names = new Map(
    (
      await sql(dbUrl, 'select oid::text, relname from pg_class where oid = any($1::oid[])', [oids])
    ).map((row) => [row.oid, row.relname])
  )
  for (const wait of waits)
    wait.lock = wait.lock
      .replace(/relation (\d+) of database \d+/, (all, oid) => names.get(oid) ?? all)
      // What a commit that NOTIFYs waits for: the one queue of notifications (pg-boss's send).
      .replace(/object 0 of class 1262 of database 0/, 'the NOTIFY queue')
  waits.sort((a, b) => b.ms - a.ms)
  const longestWaits = waits
    .slice(0, 3)
    .map((w) => `${w.app}: ${w.lock} ${w.ms} ms`)
    .join('\n      ')
  const during = loadAnswers.filter(
    (answer) =>
      answer.kind !== 'photo' && answer.at >= migrationBegun && answer.at <= migrationEnded
  )
  const slowest = during.reduce((max, answer) => Math.max(max, answer.ms), 0)
  const byKind = Object.fromEntries(
    ['get', 'put', 'intake', 'photo', 'sync'].map((kind) => [
      kind,
      loadAnswers.filter((a) => a.kind === kind).length,
    ])
  )
  console.log('\nfigures:')
  console.table({
    'requests under load': loadAnswers.length,
    'GET / PUT / intake / photo': `${byKind.get} / ${byKind.put} / ${byKind.intake} / ${byKind.photo}`,
    '5xx': serverErrors.length,
    'no answer (connection failed)': noAnswer.length,
    'inquiries accepted (201)': `${buyers.length} (${(intakeStatuses.length / intakeSeconds).toFixed(1)}/s)`,
    'leads lost': lost.length,
    'leads duplicated (> 1 webhook-id)': duplicated.length,
    'sync end state': `${syncState?.Estado} (${syncState?.Procesadas ?? '?'} of ${SYNC_ROWS})`,
    // PostgreSQL logs a wait once it passes deadlock_timeout (100 ms).
    'longest lock wait of a request (PostgreSQL log)': waits.length
      ? `${Math.round(longestWait)} ms`
      : 'none ≥ 100 ms',
    'lock waits logged (≥ 100 ms)': waits.length,
    'slowest request during the migration': `${Math.round(slowest)} ms`,
    'migration duration': `${((migrationEnded - migrationBegun) / 1000).toFixed(1)} s`,
    "REV's app tokens valid on HEAD": `${tokensValid} of ${revTokens.length}`,
  })
  if (waits.length) console.log(`longest lock waits:\n      ${longestWaits}`)
  const photos = loadAnswers.filter((answer) => answer.kind === 'photo')
  check(
    photos.length > 0 && photos.every((answer) => answer.status === 200),
    `every photo fetch answered 200 (${photos.filter((answer) => answer.status === 200).length} of ${photos.length})`,
    [...new Set(photos.map((answer) => answer.status))].join(' ')
  )
  check(
    serverErrors.length === 0,
    '0 × 5xx',
    serverErrors
      .slice(0, 3)
      .map((a) => `${a.method} ${a.path} → ${a.status} ${a.text}`)
      .join('\n      ')
  )
  check(
    noAnswer.length === 0,
    'every request answered',
    noAnswer
      .slice(0, 3)
      .map((a) => `${a.method} ${a.path}: ${a.text}`)
      .join('\n      ')
  )
  check(
    intakeStatuses.every((status) => status === 201),
    `every inquiry accepted (${buyers.length} × 201)`,
    [...new Set(intakeStatuses)].join(' ')
  )
  check(lost.length === 0, '0 leads lost', lost.slice(0, 3).join(', '))
  check(
    duplicated.length === 0,
    '0 leads duplicated (one webhook-id per inquiry)',
    duplicated.slice(0, 3).join(', ')
  )
  check(
    syncState?.Estado === 'Terminada',
    'the sync Terminada',
    JSON.stringify(syncState)?.slice(0, 300)
  )
  check(
    longestWait <= MAX_LOCK_WAIT_MS,
    `the longest lock wait a request saw ≤ ${MAX_LOCK_WAIT_MS} ms (${waits.length ? `${Math.round(longestWait)} ms` : 'none ≥ 100 ms'})`,
    longestWaits
  )
  check(tokensValid === revTokens.length, "REV's app tokens still valid on HEAD")

  // ---- REV's functional tests on HEAD's schema -------------------------------------------
  const files = REV_TESTS.filter((file) => existsSync(join(REV_DIR, file)))
  log(`REV's functional tests on a database migrated by HEAD: ${files.join(' ')}`)
  await ace(
    headBuild,
    { ...env('head-migrate'), DATABASE_URL: testsDbUrl },
    'migration:run',
    '--force'
  )
  keepSchemaInRevTests()
  const testPort = await freePort()
  const tests = launch(
    'REV tests',
    process.execPath,
    ['ace', 'test', ...files.flatMap((file) => ['--files', file])],
    {
      cwd: REV_DIR,
      env: {
        ...process.env,
        DATABASE_URL: testsDbUrl,
        PORT: String(testPort),
        PUBLIC_URL: `http://127.0.0.1:${testPort}`,
        SMTP_PORT: String(await freePort()),
        PGAPPNAME: 'rev-tests',
      },
    }
  )
  const testsResult = await tests.exited
  const summary = tests.tail
    .map((line) => line.replace(/\x1b\[[0-9;]*m/g, ''))
    .find((line) => /^ *Tests +\d+/.test(line))
  check(
    testsResult.code === 0,
    `REV's functional tests pass on HEAD's schema (${summary?.trim() ?? 'no summary'})`,
    tests.tail.slice(-30).join('\n      ')
  )
})
