/*
 * `npm run test:scale`: the service scaled out the way docs/operations.md (Beyond one machine)
 * describes it, proven end to end on 127.0.0.1.
 *
 *   one PostgreSQL (embedded under tmp/scale-pg, or SCALE_DATABASE_URL / BENCH_DATABASE_URL)
 *   PgBouncer in transaction mode in front of it (Debian package `pgbouncer`)
 *   two built web processes (build/bin/server.js): queries through PgBouncer
 *     (DATABASE_POOLER=transaction), pg-boss direct (JOBS_DATABASE_URL, session)
 *   one, then two built workers (build/ace.js jobs:work) on the direct connection
 *   photos on the `s3` disk against s3rver (npm, in this process)
 *   a webhook/ADF receiver, an SMTP sink and a photo server of real JPEGs
 *
 * Each phase posts inquiries, then listings with photos, alternately through
 * both web processes with no worker running, then times one worker (phase 1)
 * or two (phase 2) draining that backlog. It asserts: every lead delivered on
 * every channel, one webhook-id per inquiry, every photo readable at its public URL through both web processes,
 * the S3 bucket holding them, PgBouncer carrying the web traffic, and the
 * `LIMITER_STORE=database` limit summed across both web processes.
 * Last line (Japa's style, so .ci/run counts it): `Tests  N passed, M failed`.
 *
 * SCALE_INQUIRIES (per phase, default 200), SCALE_LISTINGS (per phase, 40, 3
 * photos each), SCALE_SKIP_BUILD=1 reuses build/ while iterating,
 * SCALE_POOLER=session runs the web processes without DATABASE_POOLER (named
 * statements through PgBouncer: the failure this setting prevents).
 * Run with the TypeScript loader (the npm script does) to reuse tests/helpers.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync, rmSync, existsSync, chmodSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import S3rver from 's3rver'
import { S3Client, ListObjectsV2Command } from '@aws-sdk/client-s3'
import {
  ROOT,
  log,
  check,
  cleanups,
  freePort,
  launch,
  stop,
  until,
  ace,
  startWeb,
  startWorker,
  request,
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

const BUILD = join(ROOT, 'build')
const WORK = join(ROOT, 'tmp', 'scale')
const INQUIRIES = Number(process.env.SCALE_INQUIRIES ?? 200)
const LISTINGS = Number(process.env.SCALE_LISTINGS ?? 40)
const PHOTOS_PER_LISTING = 3
const LIMIT = 20
const ADMIN_MAIL = 'escala@agencia.test'
const ADF_MAIL = 'crm@agencia.test'
const HTML_MAIL = 'ventas@agencia.test'
const BUCKET = 'fotos'
const HARD_TIMEOUT_MS = Number(process.env.SCALE_TIMEOUT_SECONDS ?? 420) * 1000

// ---- database, PgBouncer, S3 -------------------------------------------------
async function database() {
  const given = process.env.SCALE_DATABASE_URL ?? process.env.BENCH_DATABASE_URL
  if (given) return { url: given }
  try {
    const cluster = await startPostgres(join(ROOT, 'tmp', 'scale-pg'), ['max_connections=200'])
    return { url: cluster.url('postgres') }
  } catch (error) {
    if (!error?.operatorMessage) throw error
    console.error(error.message)
    process.exit(1)
  }
}

async function freshDatabase(adminUrl, name) {
  await sql(adminUrl, `drop database if exists ${name} with (force)`)
  await sql(adminUrl, `create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

function pgbouncerBinary() {
  for (const candidate of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'])
    if (existsSync(candidate)) return candidate
  try {
    return execFileSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

/** PgBouncer in transaction mode; it refuses to run as root, so it drops to `postgres` (or nobody). */
async function startPgBouncer(directUrl) {
  const binary = pgbouncerBinary()
  if (!binary)
    throw new Error('pgbouncer is not installed (Debian package `pgbouncer`; .ci/run installs it)')
  const target = new URL(directUrl)
  const port = await freePort()
  // Outside the work tree: the unprivileged user must be able to read it.
  const dir = mkdtempSync(join(tmpdir(), 'scale-pgbouncer-'))
  chmodSync(dir, 0o755)
  const ini = join(dir, 'pgbouncer.ini')
  writeFileSync(
    ini,
    [
      '[databases]',
      `scale = host=${target.hostname} port=${target.port || 5432} dbname=${target.pathname.slice(1)} user=${decodeURIComponent(target.username)} password=${decodeURIComponent(target.password)}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'admin_users = postgres',
      'pool_mode = transaction',
      // Fewer server connections than the web processes' pools hold: the
      // pooler really multiplexes them (and mixes sessions on server links).
      'default_pool_size = 6',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n')
  )
  chmodSync(ini, 0o644)
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const asRoot = process.getuid?.() === 0
  let user = 'postgres'
  if (asRoot) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' })
    } catch {
      user = 'nobody'
    }
  }
  const child = launch('pgbouncer', binary, asRoot ? ['-u', user, ini] : [ini], { cwd: dir })
  // The web processes talk through it: stopped after them.
  child.stopLast = true
  const url = `postgres://postgres@127.0.0.1:${port}/scale`
  await until(
    () =>
      sql(url, 'select 1').then(
        () => true,
        () => false
      ),
    (ok) => ok || child.exitCode !== null,
    10_000,
    'PgBouncer'
  )
  if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${child.tail.join('\n')}`)
  return {
    url,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/pgbouncer`,
    version: execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0],
  }
}

// ---- the built service -------------------------------------------------------
async function call(baseUrl, token, method, path, body) {
  const response = await request(baseUrl + path, {
    method,
    headers: {
      'authorization': `Bearer ${token}`,
      'content-type': 'application/json',
      'accept': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
    text,
  }
}

async function mustCall(...args) {
  const result = await call(...args)
  if (result.status >= 300)
    throw new Error(`${args[2]} ${args[3]} → ${result.status}: ${result.text}`)
  return result
}

/** Runs `task(i)` for i in [0, count) with `concurrency` in flight. */
async function pool(count, concurrency, task) {
  let next = 0
  const results = new Array(count)
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) results[i] = await task(i)
    })
  )
  return results
}

const BUYER = /comprador-p\d-\d+-[0-9a-f]{8}@example\.com/g
const seenBuyers = new WeakMap()
/** The buyers a hook or mail is about (parsed once per message). */
const buyersIn = (message, text) => {
  if (!seenBuyers.has(message)) seenBuyers.set(message, new Set(text().match(BUYER) ?? []))
  return seenBuyers.get(message)
}
const decoder = new TextDecoder()
function mailText(mail) {
  const parts = [mail.parsed.text ?? '', mail.parsed.html ?? '']
  for (const attachment of mail.parsed.attachments ?? []) {
    parts.push(
      typeof attachment.content === 'string'
        ? attachment.content
        : decoder.decode(attachment.content)
    )
  }
  return parts.join('\n')
}

// ---- run ---------------------------------------------------------------------
const figures = []
await run('test:scale', { timeoutMs: HARD_TIMEOUT_MS }, async () => {
  mkdirSync(WORK, { recursive: true })
  if (process.env.SCALE_SKIP_BUILD !== '1' || !existsSync(join(BUILD, 'bin', 'server.js'))) {
    log('building (node ace build)…')
    execFileSync(process.execPath, ['ace', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  // build/ has no node_modules of its own: Node resolves packages from the
  // parent directories, i.e. the root node_modules (same lockfile as
  // `npm ci --omit=dev` in build/ would install, 20 s saved).

  log('starting PostgreSQL, PgBouncer, s3rver, the receivers and the SMTP sink…')
  const db = await database()
  const direct = await freshDatabase(db.url, 'scale')
  cleanups.push(() => sql(db.url, 'drop database if exists scale with (force)'))
  const bouncer = await startPgBouncer(direct)

  const s3Port = await freePort()
  const s3Dir = join(WORK, 's3')
  rmSync(s3Dir, { recursive: true, force: true })
  const s3 = new S3rver({
    port: s3Port,
    address: '127.0.0.1',
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET }],
  })
  await s3.run()
  cleanups.push(() => s3.close())

  const { smtpPort, sink, hooks, photoServer } = await startReceivers(
    ['#9aa3ad', '#b22222', '#1e3a8a'],
    1280,
    720
  )

  const [webPortA, webPortB] = [await freePort(), await freePort()]
  const publicUrl = `http://127.0.0.1:${webPortA}`
  const dataDir = join(WORK, 'data')
  rmSync(dataDir, { recursive: true, force: true })
  const base = serviceEnv(
    {
      APP_KEY: 'scale-test-key-0123456789abcdef0123456789',
      PUBLIC_URL: publicUrl,
      DATA_DIR: dataDir,
      SMTP_PORT: String(smtpPort),
      DRIVE_DISK: 's3',
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      LIMITER_STORE: 'database',
    },
    ['JOBS_DATABASE_URL', 'DATABASE_POOLER']
  )
  const workerEnv = { ...base, DATABASE_URL: direct }
  const webEnv = {
    ...base,
    DATABASE_URL: bouncer.url,
    DATABASE_POOLER: process.env.SCALE_POOLER ?? 'transaction',
    JOBS_DATABASE_URL: direct,
  }

  log(
    'migrating; then, side by side: a small catalogue, two apps, two web processes and one worker…'
  )
  await ace(BUILD, workerEnv, 'migration:run', '--force')
  const catalogFile = join(WORK, 'catalog.json')
  writeCatalog(catalogFile, [
    { code: 'ARS', name: 'Peso argentino' },
    { code: 'USD', name: 'Dólar estadounidense' },
  ])
  const json = (output) => JSON.parse(output.slice(output.indexOf('{')))
  const [, main, limited, webA, webB, setupWorker] = await Promise.all([
    ace(BUILD, workerEnv, 'catalog:import', catalogFile),
    ace(BUILD, workerEnv, 'app:create', 'escala', '--ability', 'consultas:crear', '--json').then(
      json
    ),
    ace(BUILD, workerEnv, 'app:create', 'limite', '--json').then(json),
    startWeb('web A', BUILD, webEnv, webPortA),
    startWeb('web B', BUILD, webEnv, webPortB),
    startWorker('worker A', BUILD, workerEnv),
  ])
  let webs = [webA, webB]
  log(`running: PgBouncer (${bouncer.version}, transaction mode), two web processes, one worker`)
  const web = (i) => webs[i % 2].url

  log(
    'agency through the API: invitation mail, registration, plan, all four notification channels…'
  )
  await registerAgency(
    (i, path, body) => mustCall(web(i), main.Token, 'POST', path, body),
    sink,
    ADMIN_MAIL,
    'Escala'
  )
  await planAgency(BUILD, workerEnv, ADMIN_MAIL, 2 * LISTINGS + 10)
  await mustCall(web(0), main.Token, 'PUT', `/v3/notificaciones/${ADMIN_MAIL}`, {
    PublicacionConsultadaWebHook: {
      Callback: hooks.url('/webhook'),
      Secret: 'scale-secret-0123456789',
      Activo: true,
    },
    PublicacionConsultadaAdfHook: { Callback: hooks.url('/adf'), Activo: true },
    PublicacionConsultadaAdfMail: { Email: ADF_MAIL, Activo: true },
    PublicacionConsultadaHtmlMail: { EmailsCCO: HTML_MAIL, Activo: true },
  })
  await mustCall(
    web(1),
    main.Token,
    'POST',
    `/v3/publicaciones/${ADMIN_MAIL}`,
    listingBody('ESCALA-BASE', { Fotos: [photoServer.url('/base-0.jpg')] })
  )

  /** Per buyer: how many hits each channel got, and the webhook-ids seen. */
  function tally() {
    const per = new Map()
    const entry = (buyer) => {
      if (!per.has(buyer))
        per.set(buyer, {
          webhook: 0,
          adfHook: 0,
          adfMail: 0,
          htmlMail: 0,
          webhookIds: new Set(),
          adfIds: new Set(),
        })
      return per.get(buyer)
    }
    for (const request of hooks.requests) {
      const channel = request.path === '/webhook' ? 'webhook' : 'adfHook'
      for (const buyer of buyersIn(request, () => request.body)) {
        const seen = entry(buyer)
        seen[channel]++
        const id = request.headers['webhook-id']
        if (id) (channel === 'webhook' ? seen.webhookIds : seen.adfIds).add(id)
      }
    }
    for (const mail of sink.messages) {
      const channel = mail.envelope.to.includes(ADF_MAIL)
        ? 'adfMail'
        : mail.envelope.to.includes(HTML_MAIL)
          ? 'htmlMail'
          : null
      if (!channel) continue
      for (const buyer of buyersIn(mail, () => mailText(mail))) entry(buyer)[channel]++
    }
    return per
  }
  const complete = (seen) =>
    seen && seen.webhook > 0 && seen.adfHook > 0 && seen.adfMail > 0 && seen.htmlMail > 0

  const photoStates = async (phase) =>
    Object.fromEntries(
      (
        await sql(
          direct,
          `select state, count(*)::int as n from listing_photos where source_url like $1 group by state`,
          [`%/p${phase}-%`]
        )
      ).map((row) => [row.state, row.n])
    )

  await stop(setupWorker)

  /** Starts `count` workers side by side; resolves when all work their queues. */
  const startWorkers = (count, phase) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        startWorker(`worker ${i + 1} (phase ${phase})`, BUILD, workerEnv)
      )
    )
  const stopAll = (workers) => Promise.all(workers.map((child) => stop(child)))

  // Each phase builds a backlog with no worker running, then starts the
  // workers and times the drain from the moment they work their queues: the
  // figures are the workers', not the intake's.
  const phases = []
  for (const [phase, workers] of [
    [1, 1],
    [2, 2],
  ]) {
    log(
      `phase ${phase}: ${INQUIRIES} inquiries through web A and B alternately, then ${workers} worker(s) deliver them`
    )
    const buyers = Array.from(
      { length: INQUIRIES },
      (_, i) => `comprador-p${phase}-${i}-${randomUUID().slice(0, 8)}@example.com`
    )
    const inquiriesStarted = performance.now()
    const intake = await pool(INQUIRIES, 8, (i) =>
      call(
        web(i),
        main.Token,
        'POST',
        `/v3/consultas/${ADMIN_MAIL}`,
        inquiryBody('ESCALA-BASE', buyers[i])
      )
    )
    const postedIn = (performance.now() - inquiriesStarted) / 1000
    const accepted = intake.filter((result) => result.status === 201).length
    check(
      accepted === INQUIRIES,
      `phase ${phase}: ${INQUIRIES} inquiries accepted (201) through both web processes`,
      `${accepted}; e.g. ${intake.find((r) => r.status !== 201)?.text}`
    )
    let running = await startWorkers(workers, phase)
    const deliveryStarted = performance.now()
    let per = tally()
    try {
      await until(
        () => (per = tally()),
        (map) => buyers.every((buyer) => complete(map.get(buyer))),
        120_000,
        'every lead on every channel'
      )
    } catch {}
    const inquirySeconds = (performance.now() - deliveryStarted) / 1000
    await stopAll(running)
    const missing = buyers.filter((buyer) => !complete(per.get(buyer)))
    check(
      missing.length === 0,
      `phase ${phase}: every inquiry delivered on all 4 channels (webhook, ADF hook, ADF mail, HTML mail)`,
      `${missing.length} incomplete, e.g. ${missing[0]}: ${JSON.stringify(per.get(missing[0]) ?? null, (k, v) => (v instanceof Set ? [...v] : v))}`
    )
    const twoIds = buyers.filter(
      (buyer) =>
        (per.get(buyer)?.webhookIds.size ?? 0) > 1 || (per.get(buyer)?.adfIds.size ?? 0) > 1
    )
    check(
      twoIds.length === 0,
      `phase ${phase}: never two different webhook-ids for one inquiry`,
      twoIds.slice(0, 3).join(', ')
    )
    const duplicates = buyers.filter((buyer) =>
      ['webhook', 'adfHook', 'adfMail', 'htmlMail'].some(
        (channel) => (per.get(buyer)?.[channel] ?? 0) > 1
      )
    ).length

    log(
      `phase ${phase}: ${LISTINGS} listings × ${PHOTOS_PER_LISTING} photos through web A and B, then ${workers} worker(s) process them`
    )
    const externalIds = Array.from({ length: LISTINGS }, (_, i) => `ESCALA-P${phase}-${i}`)
    const created = await pool(LISTINGS, 4, (i) =>
      call(
        web(i),
        main.Token,
        'POST',
        `/v3/publicaciones/${ADMIN_MAIL}`,
        listingBody(externalIds[i], {
          Fotos: Array.from({ length: PHOTOS_PER_LISTING }, (_, n) =>
            photoServer.url(`/p${phase}-${i}-${n}.jpg`)
          ),
        })
      )
    )
    const listed = created.filter((result) => result.status === 201).length
    check(
      listed === LISTINGS,
      `phase ${phase}: ${LISTINGS} listings with photos created (201) through both web processes`,
      `${listed}; e.g. ${created.find((r) => r.status !== 201)?.text}`
    )
    const total = LISTINGS * PHOTOS_PER_LISTING
    running = await startWorkers(workers, phase)
    const photosStarted = performance.now()
    let states = {}
    try {
      states = await until(
        () => photoStates(phase),
        (s) => (s.ready ?? 0) + (s.failed ?? 0) >= total,
        120_000,
        'photos processed'
      )
    } catch {
      states = await photoStates(phase)
    }
    const photoSeconds = (performance.now() - photosStarted) / 1000
    await stopAll(running)
    check(
      states.ready === total,
      `phase ${phase}: all ${total} photos ready`,
      JSON.stringify(states)
    )

    phases.push({
      phase,
      workers,
      inquiries: INQUIRIES,
      inquirySeconds,
      postedIn,
      duplicates,
      photos: states.ready ?? 0,
      photoSeconds,
      externalIds,
    })
    figures.push({
      'workers': workers,
      'inquiries': INQUIRIES,
      'intake req/s (2 web)': Math.round(INQUIRIES / postedIn),
      'inquiries delivered/s (4 channels)': Number((INQUIRIES / inquirySeconds).toFixed(1)),
      'deliveries/s': Number(((4 * INQUIRIES) / inquirySeconds).toFixed(1)),
      'photos': total,
      'photos/s': Number(((states.ready ?? 0) / photoSeconds).toFixed(1)),
      'repeated sends': duplicates,
    })
  }

  log('every photo at its public URL, through both web processes…')
  const externalIds = phases.flatMap((phase) => phase.externalIds)
  const reads = await pool(externalIds.length, 6, async (i) => {
    const shown = await call(
      web(i),
      main.Token,
      'GET',
      `/v3/publicaciones/${ADMIN_MAIL}/${externalIds[i]}`
    )
    const urls = shown.body?.Fotos ?? []
    const photos = await Promise.all(
      urls.map(async (url, n) => {
        const through = (i + n) % 2 === 0 ? url : url.replace(publicUrl, webs[1].url)
        const response = await request(through)
        const bytes = Buffer.from(await response.arrayBuffer())
        const ok =
          response.status === 200 &&
          response.headers.get('content-type') === 'image/jpeg' &&
          bytes[0] === 0xff &&
          bytes[1] === 0xd8
        return ok
          ? null
          : `${through} → ${response.status} ${response.headers.get('content-type')} ${bytes.subarray(0, 200).toString()}`
      })
    )
    return {
      status: shown.status,
      count: urls.length,
      readable: photos.filter((problem) => problem === null).length,
      problems: photos.filter(Boolean),
    }
  })
  const listingsOk = reads.filter((read) => read.status === 200).length
  check(
    listingsOk === externalIds.length,
    `GET of all ${externalIds.length} listings → 200 through both web processes (PgBouncer, transaction mode)`,
    JSON.stringify(reads.find((read) => read.status !== 200))
  )
  const readable = reads.reduce((sum, read) => sum + read.readable, 0)
  const expected = externalIds.length * PHOTOS_PER_LISTING
  check(
    readable === expected,
    `every photo readable at its public URL (200 image/jpeg): ${readable} of ${expected}`,
    reads
      .flatMap((read) => read.problems)
      .slice(0, 3)
      .join('\n      ')
  )
  const s3Client = new S3Client({
    endpoint: base.S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  let objects = 0
  for (let token; ;) {
    const page = await s3Client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token })
    )
    objects += page.KeyCount ?? 0
    if (!page.IsTruncated) break
    token = page.NextContinuationToken
  }
  check(
    objects >= expected && !existsSync(join(dataDir, 'photos')),
    `the photos are in the S3 bucket (${objects} objects), none on the fs disk`
  )

  const [stats] = (await sql(bouncer.adminUrl, 'SHOW STATS')).filter(
    (row) => row.database === 'scale'
  )
  const transactions = Number(stats?.total_xact_count ?? 0)
  check(
    transactions > 2 * INQUIRIES,
    `the web processes' queries went through PgBouncer (${transactions} transactions pooled)`
  )

  log(
    `LIMITER_STORE=database: web processes restarted with RATE_LIMIT_PER_MINUTE=${LIMIT}, app "limite" hits A and B alternately…`
  )
  await Promise.all(webs.map((child) => stop(child)))
  const limitedEnv = { ...webEnv, RATE_LIMIT_PER_MINUTE: String(LIMIT) }
  webs = await Promise.all([
    startWeb('web A (limit)', BUILD, limitedEnv, webPortA),
    startWeb('web B (limit)', BUILD, limitedEnv, webPortB),
  ])
  const statuses = []
  for (let i = 0; i < LIMIT + 2; i++)
    statuses.push((await call(web(i), limited.Token, 'GET', '/v3')).status)
  const servedBy = [0, 1].map(
    (side) => statuses.filter((status, i) => i % 2 === side && status !== 429).length
  )
  check(
    statuses.slice(0, LIMIT).every((status) => status === 200),
    `requests 1–${LIMIT} (the limit, summed over A and B) are served`,
    statuses.join(' ')
  )
  check(
    statuses[LIMIT] === 429 && statuses[LIMIT + 1] === 429,
    `request ${LIMIT + 1} gets 429 although each process served only ${servedBy.join(' and ')} (a per-process limit would allow ${2 * LIMIT})`,
    statuses.join(' ')
  )

  console.log(
    `\nthroughput (2 cores, ${bouncer.version} transaction mode, s3rver, node ${process.version}):`
  )
  console.table(figures)
})
