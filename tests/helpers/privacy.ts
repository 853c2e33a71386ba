/*
 * Buyers' personal data in tests (docs/design.md §16): filing a privacy
 * request and waiting for it, a dump of the whole test database, and every
 * file under DATA_DIR.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { readdir, readFile, lstat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import env from '#start/env'
import { until } from '#tests/helpers/until'

const run = promisify(execFile)

/** POST /v3/privacidad/{adminmail}/solicitudes as the world's app; asserts 202. */
export async function fileRequest(
  client: ApiClient,
  world: { adminMail: string; token: string },
  body: Record<string, unknown>
) {
  const response = await client
    .post(`/v3/privacidad/${world.adminMail}/solicitudes`)
    .bearerToken(world.token)
    .json(body)
  response.assertStatus(202)
  return response
}

/** Polls GET on the request until it is Terminada; its body. */
export async function finished(
  client: ApiClient,
  world: { adminMail: string; token: string },
  id: string,
  timeoutMs = 20_000
) {
  const response = await until(
    () =>
      client.get(`/v3/privacidad/${world.adminMail}/solicitudes/${id}`).bearerToken(world.token),
    (answer) => answer.status() === 200 && answer.body().Estado === 'Terminada',
    timeoutMs
  )
  return response.body()
}

/**
 * The whole test database as text. `pg_dump` when its major version is the
 * server's (pg_dump refuses a newer server); otherwise every row of every
 * table of every schema as PostgreSQL prints it (`row::text`: the data section
 * of a dump, bytea in hex as pg_dump writes it too). Says which it used.
 */
export async function dumpDatabase(): Promise<{ text: string; how: 'pg_dump' | 'rows' }> {
  const [{ server_version_num: serverNum }] = (await db.rawQuery('show server_version_num'))
    .rows as { server_version_num: string }[]
  const serverMajor = Math.floor(Number(serverNum) / 10000)
  const config: any = db.connection().getWriteClient().client.config.connection
  try {
    const { stdout: version } = await run('pg_dump', ['--version'])
    const dumpMajor = Number(/(\d+)\.\d+/.exec(version)?.[1])
    if (dumpMajor === serverMajor) {
      const url =
        typeof config === 'string'
          ? config
          : `postgres://${encodeURIComponent(config.user)}:${encodeURIComponent(config.password ?? '')}@${config.host}:${config.port}/${config.database}`
      const { stdout } = await run('pg_dump', ['--dbname', url], { maxBuffer: 1 << 30 })
      return { text: stdout, how: 'pg_dump' }
    }
  } catch {}
  const tables = (
    await db.rawQuery(
      `select table_schema, table_name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`
    )
  ).rows as { table_schema: string; table_name: string }[]
  const parts: string[] = []
  for (const table of tables) {
    const rows = await db.rawQuery(
      `select t::text as line from "${table.table_schema}"."${table.table_name}" t`
    )
    parts.push(`-- ${table.table_schema}.${table.table_name}`, ...rows.rows.map((r: any) => r.line))
  }
  return { text: parts.join('\n'), how: 'rows' }
}

/**
 * Every file under DATA_DIR, as text, but the PostgreSQL cluster's own files
 * (its pages and WAL keep old row versions until vacuum and recycling; the
 * database is checked through its dump) — `pg`, `pg-test` and symlinks.
 */
export async function dataDirFiles(): Promise<{ path: string; text: string }[]> {
  const dataDir = env.get('DATA_DIR') || 'tmp'
  const root = isAbsolute(dataDir) ? dataDir : app.makePath(dataDir)
  const files: { path: string; text: string }[] = []
  async function walk(dir: string, top: boolean) {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch {
      return
    }
    for (const name of names) {
      if (top && /^pg(-test)?$|^pg-/.test(name)) continue
      const file = join(dir, name)
      const stat = await lstat(file).catch(() => null)
      if (!stat || stat.isSymbolicLink()) continue
      if (stat.isDirectory()) await walk(file, false)
      else if (stat.isFile() && stat.size < 50 * 1024 * 1024)
        files.push({ path: file, text: await readFile(file, 'latin1') })
    }
  }
  await walk(root, true)
  return files
}

/** The forms a secret can take in a dump: as is, lower-cased, and UTF-8 in hex (bytea). */
export function secretForms(secret: string) {
  return [secret, secret.toLowerCase(), Buffer.from(secret, 'utf8').toString('hex')]
}
