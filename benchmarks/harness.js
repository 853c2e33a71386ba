/*
 * What the process-level test scripts (`npm run test:scale`, `npm run test:upgrade`) share: the
 * check counters and Japa's last line `Tests  N passed, M failed` (.ci/run counts it), the child
 * processes and cleanups stopped on every way out, built web and worker processes, the receivers.
 * One script runs per process, so the state is this module's.
 */
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { startReceiver } from '#tests/helpers/receiver'
import { startSmtpSink } from '#tests/helpers/smtp_sink'
import { carPhoto } from '#tests/helpers/car_photos'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

const started = performance.now()
const seconds = () => ((performance.now() - started) / 1000).toFixed(1)
export const log = (message) => console.log(`[${seconds()} s] ${message}`)
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// ---- assertions -------------------------------------------------------------
let passed = 0
let failed = 0
export function check(condition, title, detail = '') {
  if (condition) passed++
  else failed++
  console.log(
    `  ${condition ? '✔' : '✖'} ${title}${!condition && detail ? `\n      ${detail}` : ''}`
  )
  return condition
}

// ---- processes we start, all stopped by `run` -------------------------------
export const children = []
export const cleanups = []
/** How many output lines of each child are kept for the failure report (`run` sets it). */
let keepLines = 40

export function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** A child process whose last output lines (and first errors logged) are kept for the failure report. */
export function launch(name, command, args, options) {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  child.label = name
  child.tail = []
  child.problems = []
  child.exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal }))
  )
  const keep = (chunk) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      child.tail.push(line)
      if (child.tail.length > keepLines) child.tail.shift()
      if (/"level":[56]0/.test(line) && child.problems.length < 5)
        child.problems.push(line.slice(0, 3000))
    }
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  children.push(child)
  return child
}

/** SIGTERM, SIGKILL after `timeoutMs`; resolves with how it exited. */
export async function stop(child, timeoutMs = 6000) {
  if (child.exitCode !== null || child.signalCode !== null) return child.exited
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const result = await child.exited
  clearTimeout(timer)
  return result
}

export async function until(probe, done, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

// ---- the built service -------------------------------------------------------
/** A built ace command of `build` (stopped with the rest on failure); resolves with its output. */
export async function ace(build, env, ...args) {
  const child = launch(`ace ${args[0]}`, process.execPath, ['ace.js', ...args], {
    cwd: build,
    env,
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  const { code } = await child.exited
  if (code !== 0)
    throw new Error(`ace ${args.join(' ')} (${build}) failed:\n${child.tail.join('\n')}`)
  return output
}

/** A built web process on `port` (a free one by default), once /health/ready answers 200. */
export async function startWeb(name, build, env, port) {
  port ??= await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = launch(name, process.execPath, ['bin/server.js'], {
    cwd: build,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
  })
  child.port = port
  child.url = url
  await until(
    () =>
      fetch(`${url}/health/ready`).then(
        (response) => response.status,
        () => 0
      ),
    (status) => status === 200 || child.exitCode !== null,
    90_000,
    `${name} /health/ready`
  )
  if (child.exitCode !== null) throw new Error(`${name} exited:\n${child.tail.join('\n')}`)
  return child
}

/** A built worker, once it works its queues. */
export async function startWorker(name, build, env) {
  const child = launch(name, process.execPath, ['ace.js', 'jobs:work'], { cwd: build, env })
  await until(
    () => child.tail.some((line) => /Working \d+ queue/.test(line)),
    (ok) => ok || child.exitCode !== null,
    90_000,
    `${name} ready`
  )
  if (child.exitCode !== null) throw new Error(`${name} exited:\n${child.tail.join('\n')}`)
  return child
}

/**
 * fetch, once more when the connection it picked was closed under it (`retryOn`: the error
 * codes that mean the request never reached the service).
 */
export async function request(url, init, retryOn = ['UND_ERR_SOCKET']) {
  try {
    return await fetch(url, init)
  } catch (error) {
    if (!retryOn.includes(error?.cause?.code)) throw error
    return fetch(url, init)
  }
}

// ---- PostgreSQL ----------------------------------------------------------------
/** The service's own embedded PostgreSQL under `dir`, stopped last. */
export async function startPostgres(dir, settings) {
  // The service's own launcher: works as root from a private checkout too.
  const { startCluster } = await import('#core/database/embedded')
  const cluster = await startCluster(dir, settings)
  cleanups.push(() => cluster.stop())
  return cluster
}

export async function sql(url, text, values) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text, values)).rows
  } finally {
    await client.end()
  }
}

// ---- data and receivers ------------------------------------------------------------
/** The smallest catalogue the listings below need: Toyota Corolla XEI 2.0 CVT 2021 and 2024. */
export function writeCatalog(file, currencies) {
  writeFileSync(
    file,
    JSON.stringify({
      regions: [{ code: 'AR-X', name: 'Córdoba', countryCode: 'AR', cities: ['Córdoba'] }],
      currencies,
      brands: [
        {
          name: 'Toyota',
          models: [
            {
              name: 'Corolla',
              versions: [2021, 2024].map((year) => ({
                name: 'XEI 2.0 CVT',
                year,
                propulsion: 'Nafta',
                transmission: 'CVT',
                power: 170,
                displacement: 1987,
                bodyType: 'Sedán',
                segment: 'C',
                newMarket: year === 2024,
              })),
            },
          ],
        },
      ],
    })
  )
}

export const listingBody = (externalId, overrides = {}) => ({
  ExternalId: externalId,
  Marca: 'Toyota',
  Modelo: 'Corolla',
  Version: 'XEI 2.0 CVT',
  Transmision: 'CVT',
  Propulsion: 'Nafta',
  VersionYear: 2021,
  Kilometraje: 48000,
  Color: 'Gris plata',
  Descripcion: 'Unidad usada, un dueño.',
  Precio: { Moneda: 'ARS', Importe: 28500000 },
  Locacion: { Region: 'Córdoba', Ciudad: 'Córdoba', Direccion: 'Av. Colón 1000' },
  ...overrides,
})

export const inquiryBody = (externalId, email) => ({
  ExternalId: externalId,
  OrigenLead: 'App',
  Interesado: {
    Interes: 'Compra',
    Nombre: 'Lucía',
    Apellido: 'Gómez',
    Email: email,
    Telefono: '+54 11 5555-1234',
    Comentario: '¿Sigue disponible?',
  },
})

/**
 * An agency through the API: created, its invitation mail's link, registered. `post(i, path, body)`
 * is the script's own call (`i` alternates between web processes where there are two).
 */
export async function registerAgency(post, sink, adminMail, name) {
  await post(0, '/v3/agencias', {
    AdminMail: adminMail,
    NombreComercial: `${name} Autos`,
    Region: 'Córdoba',
    Ciudad: 'Córdoba',
    Direccion: 'Av. Colón 1000',
    Telefono: '+5493511234567',
    AdminNombre: 'Ana',
    AdminApellido: name,
  })
  const [invitation] = await sink.waitFor((mail) => mail.envelope.to.includes(adminMail), 30_000)
  const link = /\/registro\/([A-Za-z0-9_.~-]+)/.exec(
    `${invitation.parsed.text ?? ''}\n${invitation.parsed.html ?? ''}`
  )?.[1]
  if (!link) throw new Error('no registration link in the invitation mail')
  await post(1, `/registro/${link}`, {
    AdminNombre: 'Ana',
    AdminApellido: name,
    Password: 'una-clave-larga-123',
  })
}

/** The agency's plan: room for `capacity` listings, 5 featured high and 15 medium. */
export function planAgency(build, env, adminMail, capacity) {
  const room = String(capacity)
  return ace(
    build,
    env,
    'agency:plan',
    adminMail,
    '--capacity',
    room,
    '--alta',
    '5',
    '--media',
    '15',
    '--baja',
    room
  )
}

/** The environment of a built process in production, sending mail to this machine's sink. */
export function serviceEnv(settings, unset) {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SMTP_HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...settings,
  }
  for (const name of unset) delete env[name]
  return env
}

/**
 * An SMTP sink, a webhook receiver and a server of real JPEGs (one per colour, picked by the
 * `-N.jpg` ending of the path), all closed by `run`.
 */
export async function startReceivers(colours, width, height) {
  const smtpPort = await freePort()
  const sink = await startSmtpSink(smtpPort)
  cleanups.push(() => sink.close())
  const hooks = await startReceiver()
  cleanups.push(() => hooks.close())
  const photoServer = await startReceiver()
  cleanups.push(() => photoServer.close())
  const jpegs = await Promise.all(
    colours.map((colour, view) => carPhoto(colour, view, width, height))
  )
  photoServer.setDefault((req) => ({
    status: 200,
    headers: { 'content-type': 'image/jpeg' },
    body: jpegs[Number(/-(\d)\.jpg$/.exec(req.path)?.[1] ?? 0) % jpegs.length],
  }))
  return { smtpPort, sink, hooks, photoServer }
}

// ---- run ---------------------------------------------------------------------
let shuttingDown = null
/** Children marked `stopLast` (a pooler the others talk through) outlive the rest. */
function shutdown() {
  shuttingDown ??= (async () => {
    await Promise.all(children.filter((child) => !child.stopLast).map((child) => stop(child)))
    await Promise.all(children.map((child) => stop(child)))
    for (const cleanup of cleanups.reverse())
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {})
  })()
  return shuttingDown
}

/**
 * Runs `body`, then stops everything (also on SIGINT/SIGTERM and after `timeoutMs`), reports a
 * crash with each child's last output, prints `Tests  N passed, M failed` and exits 1 on any failure.
 */
export async function run(name, { timeoutMs, tailLines = 40 }, body) {
  keepLines = tailLines
  const hardTimer = setTimeout(() => {
    console.error(`${name}: hard timeout (${timeoutMs / 1000} s), stopping everything`)
    failed++
    shutdown().finally(() => {
      console.log(`Tests  ${passed} passed, ${failed} failed`)
      process.exit(1)
    })
  }, timeoutMs)
  hardTimer.unref()
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => shutdown().finally(() => process.exit(130)))

  let crash = null
  try {
    await body()
  } catch (error) {
    failed++
    crash = error
  } finally {
    await shutdown()
    clearTimeout(hardTimer)
    // After the stop, so that what the processes logged last has been read.
    if (crash) {
      console.error(
        `${name}: ${crash.stack ?? crash}${crash.cause ? `\n  cause: ${crash.cause.stack ?? crash.cause}` : ''}`
      )
      for (const child of children) {
        const lines = [...child.problems, ...child.tail.slice(-8)]
        if (lines.length)
          console.error(`--- ${child.label}: errors logged, last output ---\n${lines.join('\n')}`)
      }
    }
    log('stopped everything')
    console.log(`Tests  ${passed} passed, ${failed} failed`)
    process.exit(failed > 0 ? 1 : 0)
  }
}
