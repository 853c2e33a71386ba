/*
 * Stock sync figures (issue 26), run by run.js when BENCH_ONLY matches `sync` (or no filter):
 *
 * 1. Rows/s end to end — the service: `POST …/sincronizaciones` (JSON, Modo Parcial) until
 *    `GET …/sincronizaciones/{id}` says `Terminada` (the bench's own worker process does the job;
 *    the GET is polled every 25 ms, then every 1 % of the time so far, ≤ 500 ms); the bare baseline (baseline.js, node:http + pg): the same
 *    JSON body POSTed to it, parsed, and the same rows written with plain SQL in ONE transaction.
 *    Three syncs on an agency of SYNC_ROWS (1 000) listings, each measured BENCH_SYNC_ROUNDS (2)
 *    times, the two sides alternating which goes first:
 *    - first: every row new. Baseline: one `INSERT` per row, every column a created listing
 *      gets (the vehicle's catalogue columns, agency, operator and location copied from the
 *      API-made listing BENCH-1, i.e. resolved once per request: every row is the same version).
 *    - unchanged: the same inventory again. Baseline "naive mirror": one `UPDATE` per row
 *      (the row's fields, revision + 1); baseline "diff": one `SELECT` of the rows' current
 *      state, compared in JS, no write.
 *    - 10 % changed (every tenth row's price and description): baseline "naive": one `UPDATE`
 *      per row (1 000); "diff": the `SELECT`, then 100 `UPDATE`s.
 *    Rows are 0 km vehicles (Toyota Corolla XEI 2.0 CVT) without photos, ≈ 0.4 KiB each.
 *    Between rounds the rows of both sides are deleted (plain SQL) so each round's first sync
 *    creates them again.
 *    CPU ms per row: the service's web + worker, or the baseline's process, and PostgreSQL.
 * 2. Web RSS while receiving a 5 000-row, ≈ 19 MiB sync, JSON and CSV: the worker paused
 *    (SIGSTOP), the web's peak reset (`/proc/<pid>/clear_refs` ← 5), then VmHWM after the 202
 *    minus VmRSS before; the sync is deleted before the worker resumes.
 * 3. With the embedded PostgreSQL: the statements the worker runs per row, by kind, with the
 *    server's time for them, for each of the three syncs on STATEMENT_ROWS (100) rows
 *    (log_min_duration_statement = 0, the worker's connections; logging slows that pass, so its
 *    rows/s are not the throughput figures).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { ADMIN_MAIL, EXTERNAL_ID } from './dealer.js'

export const SYNC_ROWS = Number(process.env.BENCH_SYNC_ROWS ?? 1000)
export const SYNC_ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 2)
const STATEMENT_ROWS = 100
const POLL_MS = 25
const SERVICE_PREFIX = 'STK-'
const BASELINE_PREFIX = 'BASE-'
const COLOURS = ['Gris plata', 'Blanco perla', 'Negro', 'Rojo', 'Azul marino']
/**
 * The rows' Version: by default the bench listing's own ('XEI 2.0 CVT', the way an Argentine dealer
 * names it), which the bundled catalogue does not hold — each created row goes through the whole
 * best-match (with the year, then without) and keeps its name as an unknown version.
 * CATALOGUE_VERSION is one the catalogue holds once for the year (the resolver's short path);
 * BENCH_SYNC_VERSION=catalogue uses it for the throughput syncs too.
 */
export const CATALOGUE_VERSION = '1.5L M15A-FKS I3 Petrol 6-Speed Manual FWD (E210 (12th Gen))'
const VERSION =
  process.env.BENCH_SYNC_VERSION === 'catalogue'
    ? CATALOGUE_VERSION
    : (process.env.BENCH_SYNC_VERSION ?? 'XEI 2.0 CVT')

/** One row of the inventory: the listing create body; `changed` moves price and description. */
export function syncRow(prefix, i, changed = 0, pad = 0, version = VERSION) {
  const row = {
    ExternalId: `${prefix}${i}`,
    Marca: 'Toyota',
    Modelo: 'Corolla',
    Version: version,
    Transmision: version === CATALOGUE_VERSION ? 'Manual' : 'CVT',
    Propulsion: 'Nafta',
    VersionYear: new Date().getFullYear(),
    Kilometraje: 0,
    Color: COLOURS[i % COLOURS.length],
    Descripcion: `Unidad 0 km número ${i}, entrega inmediata.${changed ? ` Precio revisado ${changed}.` : ''}`,
    Precio: { Moneda: 'ARS', Importe: 38_500_000 + i * 1000 + changed },
    Locacion: { Region: 'Córdoba', Ciudad: 'Córdoba', Direccion: 'Av. Colón 1000' },
  }
  if (pad) {
    // ≈ 4 KiB a row for the RSS figure: a long description and technical data.
    row.Descripcion = (
      row.Descripcion +
      ' ' +
      'Equipamiento completo, service oficial. '.repeat(60)
    ).slice(0, 1990)
    row.DatosTecnicosCustom = Array.from({ length: 9 }, (_, k) => ({
      Nombre: `Dato ${k}`,
      Valor: `valor ${k} `.repeat(20).slice(0, 195),
    }))
  }
  return row
}

/** The inventory of one sync: every tenth row changed when `changedRound` is not 0. */
export function inventory(prefix, rows = SYNC_ROWS, changedRound = 0, version = VERSION) {
  return Array.from({ length: rows }, (_, k) =>
    syncRow(prefix, k + 1, changedRound && (k + 1) % 10 === 0 ? changedRound : 0, 0, version)
  )
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** POST the inventory, then poll its Location until Terminada; seconds and the final state. */
export async function serviceSync(ctx, serviceUrl, rows, { mode = 'Parcial' } = {}) {
  const body = JSON.stringify({ Modo: mode, Publicaciones: rows })
  const headers = {
    'authorization': `Bearer ${ctx.token}`,
    'content-type': 'application/json',
    'accept': 'application/json',
  }
  const started = performance.now()
  const posted = await fetch(`${serviceUrl}/v3/publicaciones/${ADMIN_MAIL}/sincronizaciones`, {
    method: 'POST',
    headers,
    body,
  })
  const text = await posted.text()
  if (posted.status !== 202) throw new Error(`sync POST → ${posted.status}: ${text.slice(0, 300)}`)
  const accepted = performance.now() - started
  const location = posted.headers.get('location')
  for (;;) {
    // Polled every POLL_MS, then every 1 % of the time so far (≤ 500 ms): the GETs' own web CPU
    // stays small beside the sync's, and the end is known within ≈ 1 %.
    const elapsed = performance.now() - started
    const response = await fetch(location, { headers })
    const state = await response.json()
    if (state.Estado === 'Terminada' || state.Estado === 'Fallida') {
      return {
        seconds: (performance.now() - started) / 1000,
        acceptedMs: Math.round(accepted),
        id: state.Id,
        state: state.Estado,
        processed: state.Procesadas,
        summary: state.Resumen,
      }
    }
    await sleep(Math.min(500, Math.max(POLL_MS, elapsed / 100)))
  }
}

/** POST the inventory to the baseline (`mode`: insert | naive | diff); seconds and its counts. */
export async function baselineSync(ctx, baselineUrl, rows, mode) {
  const started = performance.now()
  const response = await fetch(`${baselineUrl}/sync`, {
    method: 'POST',
    headers: {
      'authorization': `Bearer ${ctx.token}`,
      'content-type': 'application/json',
      'x-sync-mode': mode,
    },
    body: JSON.stringify({ Modo: 'Parcial', Publicaciones: rows }),
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`baseline sync → ${response.status}: ${text}`)
  return { seconds: (performance.now() - started) / 1000, ...JSON.parse(text) }
}

// ——— the baseline's side (runs inside baseline.js) ———

let template = null

/** Every column of a created listing except id and the per-row ones: BENCH-1's values. */
async function listingTemplate(client) {
  if (template) return template
  const { rows } = await client.query(
    `select * from listings where admin_email = $1 and lower(external_id) = lower($2) limit 1`,
    [ADMIN_MAIL, EXTERNAL_ID]
  )
  const { id, ...columns } = rows[0]
  template = columns
  return template
}

/** The per-row columns a row's body sets, as the service stores them. */
const rowColumns = (row) => ({
  year: row.VersionYear,
  mileage: row.Kilometraje,
  colour: row.Color ?? null,
  description: row.Descripcion ?? null,
  price_currency: row.Precio?.Moneda ?? null,
  price_amount: row.Precio?.Importe ?? null,
  region_name: row.Locacion?.Region ?? null,
  city_name: row.Locacion?.Ciudad ?? null,
  address: row.Locacion?.Direccion ?? null,
})
const EDITED = Object.keys(rowColumns({}))

const same = (current, wanted) =>
  EDITED.every((column) =>
    column === 'price_amount'
      ? Number(current[column]) === Number(wanted[column])
      : (current[column] ?? null) === (wanted[column] ?? null)
  )

/**
 * The bare sync: the body parsed, the rows written with plain SQL in one transaction
 * (`x-sync-mode`: insert, naive, diff — see the head of this file).
 */
export async function baselineSyncHandler(pool, req, authenticate, readBody) {
  const caller = await authenticate(pool, req)
  if (!caller) return { status: 401, body: '{}' }
  const rows = JSON.parse(await readBody(req)).Publicaciones
  const mode = req.headers['x-sync-mode']
  const client = await pool.connect()
  let written = 0
  let statements = 0
  try {
    const base = await listingTemplate(client)
    await client.query('begin')
    if (mode === 'insert') {
      const now = new Date()
      for (const row of rows) {
        const values = {
          ...base,
          ...rowColumns(row),
          app_id: caller.id,
          external_id: row.ExternalId,
          slug: `toyota-corolla-${row.VersionYear}-${randomBytes(5).toString('hex')}`,
          revision: 1,
          state: 'active',
          photo_keys: '[]',
          photo_count: 0,
          custom_specs: JSON.stringify(base.custom_specs),
          created_at: now,
          updated_at: now,
        }
        const names = Object.keys(values)
        await client.query(
          `insert into listings (${names.join(', ')}) values (${names.map((_, k) => `$${k + 1}`).join(', ')}) returning id`,
          names.map((name) => values[name])
        )
        statements++
        written++
      }
    } else {
      let todo = rows
      if (mode === 'diff') {
        const { rows: current } = await client.query(
          `select * from listings where agency_id = $1 and lower(external_id) = any($2::text[])`,
          [base.agency_id, rows.map((row) => row.ExternalId.toLowerCase())]
        )
        statements++
        const byId = new Map(current.map((listing) => [listing.external_id.toLowerCase(), listing]))
        todo = rows.filter((row) => {
          const listing = byId.get(row.ExternalId.toLowerCase())
          return !listing || !same(listing, rowColumns(row))
        })
      }
      for (const row of todo) {
        const values = rowColumns(row)
        await client.query(
          `update listings set ${EDITED.map((name, k) => `${name} = $${k + 3}`).join(', ')},
             revision = revision + 1, updated_at = now()
           where agency_id = $1 and lower(external_id) = lower($2)`,
          [base.agency_id, row.ExternalId, ...EDITED.map((name) => values[name])]
        )
        statements++
        written++
      }
    }
    await client.query('commit')
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
  return { status: 200, body: JSON.stringify({ rows: rows.length, written, statements }) }
}

// ——— run.js's side ———

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench' })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A plan that holds both sides' rows (and the rest of the bench agency's listings). */
export async function makeRoom(url, rows = SYNC_ROWS) {
  await withClient(url, (client) =>
    client.query(
      `insert into plans (agency_id, capacity, quota_high, quota_medium, quota_low)
       select id, $1, $1, $1, $1 from agencies where admin_email = $2
       on conflict (agency_id) do update set capacity = greatest(plans.capacity, excluded.capacity),
         quota_high = greatest(plans.quota_high, excluded.quota_high),
         quota_medium = greatest(plans.quota_medium, excluded.quota_medium),
         quota_low = greatest(plans.quota_low, excluded.quota_low)`,
      [2 * rows + 6000, ADMIN_MAIL]
    )
  )
}

/** The rows of both sides gone (and their syncs): the next round's first sync creates them again. */
export async function dropSyncRows(url) {
  await withClient(url, async (client) => {
    await client.query(
      `delete from listings where admin_email = $1 and (external_id like $2 or external_id like $3)`,
      [ADMIN_MAIL, `${SERVICE_PREFIX}%`, `${BASELINE_PREFIX}%`]
    )
    await client.query('delete from listing_syncs where admin_email = $1', [ADMIN_MAIL])
  })
}

/**
 * The three syncs, both sides, `SYNC_ROUNDS` rounds. `tools`: settle(), cpu(which) → ms of the
 * named processes (web, worker, baseline, postgres) or null.
 */
export async function syncThroughput(ctx, urls, tools) {
  const perRow = (ms, rows) => (ms === null ? null : Number((ms / rows).toFixed(2)))
  async function measured(which, run) {
    await tools.settle()
    const before = tools.cpu(which)
    const result = await run()
    const after = tools.cpu(which)
    const used = which.map((name, k) =>
      before[k] === null || after[k] === null ? null : after[k] - before[k]
    )
    return { ...result, cpuMs: Object.fromEntries(which.map((name, k) => [name, used[k]])) }
  }
  const service = (rows) =>
    measured(['web', 'worker', 'postgres'], () => serviceSync(ctx, urls.service, rows))
  const bare = (rows, mode) =>
    measured(['baseline', 'postgres'], () => baselineSync(ctx, urls.baseline, rows, mode))

  const runs = { first: [], unchanged: [], changed: [] }
  for (let round = 0; round < SYNC_ROUNDS; round++) {
    await dropSyncRows(ctx.databaseUrl)
    const serviceFirst = round % 2 === 0
    const pair = async (kind, serviceRows, baselineRuns) => {
      const entry = {}
      if (serviceFirst) entry.service = await service(serviceRows)
      for (const [name, rows, mode] of baselineRuns) entry[name] = await bare(rows, mode)
      if (!serviceFirst) entry.service = await service(serviceRows)
      runs[kind].push(entry)
      const line = Object.entries(entry)
        .map(([name, run]) => `${name} ${Math.round(SYNC_ROWS / run.seconds)} rows/s`)
        .join(', ')
      console.log(`  round ${round + 1}, ${kind}: ${line}`)
    }
    await pair('first', inventory(SERVICE_PREFIX), [
      ['baseline', inventory(BASELINE_PREFIX), 'insert'],
    ])
    await pair('unchanged', inventory(SERVICE_PREFIX), [
      ['baseline', inventory(BASELINE_PREFIX), 'naive'],
      ['baselineDiff', inventory(BASELINE_PREFIX), 'diff'],
    ])
    // A different change each round, so every changed row really changes.
    const changed = 100 + round
    await pair('changed', inventory(SERVICE_PREFIX, SYNC_ROWS, changed), [
      ['baseline', inventory(BASELINE_PREFIX, SYNC_ROWS, changed), 'naive'],
      // Another change than the naive side's, which ran first and already wrote its own.
      ['baselineDiff', inventory(BASELINE_PREFIX, SYNC_ROWS, changed + 50), 'diff'],
    ])
  }
  await dropSyncRows(ctx.databaseUrl)

  // Per kind: rows/s of each side over all rounds (total rows / total seconds), the ratios, CPU per row.
  const figures = {}
  for (const [kind, entries] of Object.entries(runs)) {
    const sides = {}
    for (const name of Object.keys(entries[0])) {
      const seconds = entries.reduce((sum, entry) => sum + entry[name].seconds, 0)
      const rows = SYNC_ROWS * entries.length
      const cpu = {}
      for (const part of Object.keys(entries[0][name].cpuMs)) {
        const values = entries.map((entry) => entry[name].cpuMs[part])
        cpu[part] = values.includes(null)
          ? null
          : perRow(
              values.reduce((a, b) => a + b, 0),
              rows
            )
      }
      sides[name] = {
        rowsPerSecond: Math.round(rows / seconds),
        perRound: entries.map((entry) => Math.round(SYNC_ROWS / entry[name].seconds)),
        cpuMsPerRow: cpu,
        ...(name === 'service'
          ? {
              acceptedMs: entries.map((entry) => entry.service.acceptedMs),
              summary: entries.at(-1).service.summary,
            }
          : { written: entries.at(-1)[name].written, statements: entries.at(-1)[name].statements }),
      }
    }
    figures[kind] = {
      ...sides,
      ratio: Number((sides.service.rowsPerSecond / sides.baseline.rowsPerSecond).toFixed(2)),
      ...(sides.baselineDiff && {
        ratioToDiff: Number(
          (sides.service.rowsPerSecond / sides.baselineDiff.rowsPerSecond).toFixed(2)
        ),
      }),
    }
  }
  return figures
}

export function printSyncFigures(figures) {
  const cpu = (side) =>
    side
      ? Object.entries(side.cpuMsPerRow)
          .map(([name, ms]) => `${name} ${ms ?? '-'}`)
          .join(' + ')
      : '-'
  const labels = {
    first: `first sync (${SYNC_ROWS} created)`,
    unchanged: 'same inventory again (all SinCambios)',
    changed: '10 % changed',
  }
  console.table(
    Object.entries(figures).map(([kind, f]) => ({
      'sync': labels[kind],
      'service rows/s': f.service.rowsPerSecond,
      'per round': f.service.perRound.join(' / '),
      'baseline rows/s': f.baseline.rowsPerSecond,
      'ratio': f.ratio,
      'diffing baseline rows/s': f.baselineDiff?.rowsPerSecond ?? '-',
      'ratio to it': f.ratioToDiff ?? '-',
      'service CPU ms/row': cpu(f.service),
      'baseline CPU ms/row': cpu(f.baseline),
      'diffing CPU ms/row': cpu(f.baselineDiff),
    }))
  )
}

/** Peak RSS of the web while it receives a 5 000-row ≈ 19 MiB sync, JSON and CSV. */
export async function syncMemory(ctx, serviceUrl, pids) {
  const rows = Array.from({ length: 5000 }, (_, k) => syncRow('MEM-', k + 1, 0, 1))
  const json = Buffer.from(JSON.stringify({ Modo: 'Parcial', Publicaciones: rows }))
  const csv = Buffer.from(toCsv(rows))
  const status = () => readFileSync(`/proc/${pids.web}/status`, 'utf8')
  const kib = (text, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)[1])
  const figures = {}
  process.kill(pids.worker, 'SIGSTOP')
  try {
    for (const [kind, body, type, query] of [
      ['json', json, 'application/json', ''],
      ['csv', csv, 'text/csv; charset=utf-8', '?modo=Parcial'],
    ]) {
      await sleep(500)
      writeFileSync(`/proc/${pids.web}/clear_refs`, '5')
      const before = status()
      let sampled = kib(before, 'VmRSS')
      const timer = setInterval(() => {
        try {
          sampled = Math.max(sampled, kib(status(), 'VmRSS'))
        } catch {}
      }, 5)
      const started = performance.now()
      const response = await fetch(
        `${serviceUrl}/v3/publicaciones/${ADMIN_MAIL}/sincronizaciones${query}`,
        {
          method: 'POST',
          headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': type },
          body,
        }
      )
      const answer = await response.json()
      const ms = performance.now() - started
      clearInterval(timer)
      const after = status()
      const mib = (value) => Number((value / 1024).toFixed(1))
      figures[kind] = {
        status: response.status,
        bytes: body.length,
        rows: answer.Total ?? null,
        ms: Math.round(ms),
        rssBeforeMiB: mib(kib(before, 'VmRSS')),
        peakMiB: mib(kib(after, 'VmHWM')),
        growthMiB: mib(kib(after, 'VmHWM') - kib(before, 'VmRSS')),
        sampledGrowthMiB: mib(sampled - kib(before, 'VmRSS')),
        rssAfterMiB: mib(kib(after, 'VmRSS')),
      }
      if (response.status !== 202) figures[kind].error = JSON.stringify(answer).slice(0, 300)
      // The sync is dropped before the worker resumes: its job finds nothing to do.
      await withClient(ctx.databaseUrl, (client) =>
        client.query('delete from listing_syncs where admin_email = $1', [ADMIN_MAIL])
      )
    }
  } finally {
    process.kill(pids.worker, 'SIGCONT')
  }
  return figures
}

const CSV_HEADER = [
  'ExternalId',
  'Marca',
  'Modelo',
  'Version',
  'Transmision',
  'Propulsion',
  'VersionYear',
  'Kilometraje',
  'Color',
  'Descripcion',
  'DatosTecnicosCustom',
  'Precio.Moneda',
  'Precio.Importe',
  'Locacion.Region',
  'Locacion.Ciudad',
  'Locacion.Direccion',
]

function toCsv(rows) {
  const cell = (value) => {
    const text = String(value ?? '')
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  const lines = [CSV_HEADER.join(',')]
  for (const row of rows) {
    lines.push(
      CSV_HEADER.map((column) => {
        if (column === 'DatosTecnicosCustom')
          return cell(
            (row.DatosTecnicosCustom ?? []).map((s) => `${s.Nombre}=${s.Valor}`).join('|')
          )
        const [a, b] = column.split('.')
        return cell(b ? row[a]?.[b] : row[a])
      }).join(',')
    )
  }
  return lines.join('\r\n') + '\r\n'
}

/**
 * What the worker runs per row, by kind of statement, for each sync on STATEMENT_ROWS rows, with
 * the server's time per kind (`countWorker(send)` → the worker's statements `{text, ms}` while
 * `send` runs; `workerCpu()` → the worker's CPU ms so far).
 */
export async function syncStatements(ctx, serviceUrl, countWorker, workerCpu) {
  const prefix = 'STMT-'
  const kinds = {
    first: () => inventory(prefix, STATEMENT_ROWS),
    unchanged: () => inventory(prefix, STATEMENT_ROWS),
    changed: () => inventory(prefix, STATEMENT_ROWS, 7),
    // Created again, with a version the catalogue holds: the resolver's short path.
    firstCatalogueVersion: () => inventory('STMC-', STATEMENT_ROWS, 0, CATALOGUE_VERSION),
  }
  const figures = {}
  for (const [kind, rows] of Object.entries(kinds)) {
    let run = null
    const cpuBefore = workerCpu()
    const statements = await countWorker(async () => {
      run = await serviceSync(ctx, serviceUrl, rows())
    })
    const cpu = workerCpu() - cpuBefore
    const byKind = new Map()
    for (const statement of statements) {
      const key = statementKind(statement.text)
      const entry = byKind.get(key) ?? { count: 0, ms: 0, sample: statement.text.slice(0, 240) }
      entry.count++
      entry.ms += statement.ms
      byKind.set(key, entry)
    }
    const ms = statements.reduce((sum, statement) => sum + statement.ms, 0)
    figures[kind] = {
      total: statements.length,
      perRow: Number((statements.length / STATEMENT_ROWS).toFixed(2)),
      msPerRow: Number((ms / STATEMENT_ROWS).toFixed(2)),
      seconds: Number(run.seconds.toFixed(2)),
      workerCpuMsPerRow: Number((cpu / STATEMENT_ROWS).toFixed(2)),
      summary: run.summary,
      byKind: Object.fromEntries(
        [...byKind.entries()]
          .sort((a, b) => b[1].ms - a[1].ms)
          .map(([key, entry]) => [
            key,
            {
              perRow: Number((entry.count / STATEMENT_ROWS).toFixed(2)),
              msPerRow: Number((entry.ms / STATEMENT_ROWS).toFixed(3)),
              sample: entry.sample,
            },
          ])
      ),
    }
  }
  await withClient(ctx.databaseUrl, (client) =>
    client.query(
      `delete from listings where admin_email = $1 and (external_id like $2 or external_id like 'STMC-%')`,
      [ADMIN_MAIL, `${prefix}%`]
    )
  )
  return figures
}

/** A statement's kind: its verb, the table it reads or writes, and what sets it apart. */
function statementKind(statement) {
  const text = statement.replace(/\s+/g, ' ').trim().toLowerCase()
  const head = /^(begin|commit|rollback|savepoint|release savepoint|rollback to savepoint)\b/.exec(
    text
  )
  if (head) return head[1]
  const table = (/\bfrom\s+"?([a-z_]+)"?(?![.\w])/.exec(text) ?? [])[1]
  const tags = [
    /similarity\(/.test(text) && 'ranked search',
    /for update/.test(text) && 'for update',
    /for key share/.test(text) && 'for key share',
    /pg_advisory/.test(text) && 'advisory lock',
    /count\(/.test(text) && 'count',
  ].filter(Boolean)
  const verb = /^(with|select|insert into|update|delete from)\s+"?([a-z_.]+)"?/.exec(text)
  if (!verb) return text.slice(0, 60)
  const what =
    verb[1] === 'select'
      ? `select from ${table ?? '?'}`
      : verb[1] === 'with'
        ? `with … ${(/\b(insert into|update|delete from)\s+"?([a-z_.]+)/.exec(text) ?? [, '', ''])[1]} ${(/\b(insert into|update|delete from)\s+"?([a-z_.]+)/.exec(text) ?? [, '', ''])[2]}`
        : `${verb[1]} ${verb[2]}`
  return tags.length ? `${what} (${tags.join(', ')})` : what
}
