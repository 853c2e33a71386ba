/*
 * The bare baseline: node:http + pg, no framework, doing each scenario's
 * queries and JSON. Routes by scenario index in the `x-scenario` header.
 */
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { scenarios, authenticate } from './scenarios.js'
import { baselineSyncHandler } from './sync.js'

const ctx = JSON.parse(readFileSync(process.env.BENCH_CONTEXT, 'utf8'))
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
pool.on('error', () => {})

function readBody(req) {
  return new Promise((resolve) => {
    let data = ''
    req.on('data', (chunk) => (data += chunk))
    req.on('end', () => resolve(data))
  })
}

const server = createServer(async (req, res) => {
  // The stock sync's bare side (benchmarks/sync.js): not an autocannon scenario.
  if (req.url === '/sync') {
    try {
      const { status, body } = await baselineSyncHandler(pool, req, authenticate, readBody)
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body)
    } catch (error) {
      res.writeHead(500).end(String(error?.stack ?? error))
    }
    return
  }
  const scenario = scenarios[Number(req.headers['x-scenario'])]
  // No scenario: run.js asking whether it is up (a 500 here kept it waiting 30 s, then untracked).
  if (!scenario) return res.writeHead(200).end('{}')
  try {
    const { status, body, headers = {} } = await scenario.baseline(pool, req, ctx)
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    res.end(body)
  } catch (error) {
    res.writeHead(500)
    res.end(String(error))
  }
})

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'))
// Exits even while the intake's pg-boss sender or a checked-out client holds the pool open.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    setTimeout(() => process.exit(0), 1000).unref()
    pool.end().finally(() => process.exit(0))
  })
}
