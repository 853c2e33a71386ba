/*
 * What the benchmark loads, side by side: each scenario is one request against
 * the service and the bare baseline's handler doing the same queries and JSON.
 * `setup(ctx)` runs once after seeding and may add data to `ctx`.
 */
import { createHash } from 'node:crypto'

/**
 * The baseline's share of authentication: the same token row lookup, hash
 * comparison and app load the service performs, in one round trip.
 */
export async function authenticate(pool, req) {
  const header = req.headers.authorization ?? ''
  const match = /^Bearer dla_([^.]+)\.(.+)$/.exec(header)
  if (!match) return null
  const id = Buffer.from(match[1], 'base64url').toString()
  const secret = Buffer.from(match[2], 'base64url').toString()
  const { rows } = await pool.query(
    'select t.hash, a.id, a.abilities from app_tokens t join apps a on a.id = t.tokenable_id where t.id = $1 and t.type = $2',
    [id, 'app_token']
  )
  const row = rows[0]
  if (!row || row.hash !== createHash('sha256').update(secret).digest('hex')) return null
  return row
}

/** The same body and strong ETag the service computes for its entry point. */
function entryPoint(ctx) {
  const body = JSON.stringify(ctx.entryPoint)
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` }
}

export const scenarios = [
  {
    name: 'GET /health/live',
    request: () => ({ path: '/health/live' }),
    baseline: async () => ({ status: 200, body: '{"Estado":"ok"}' }),
  },
  {
    name: 'GET /v3',
    request: (ctx) => ({ path: '/v3', headers: { authorization: `Bearer ${ctx.token}` } }),
    baseline: async (pool, req, ctx) => {
      if (!(await authenticate(pool, req))) return { status: 401, body: '{}' }
      const { body, etag } = entryPoint(ctx)
      return { status: 200, body, headers: { etag } }
    },
  },
  {
    name: 'GET /v3 (304)',
    request: (ctx) => ({ path: '/v3', headers: { 'authorization': `Bearer ${ctx.token}`, 'if-none-match': entryPoint(ctx).etag } }),
    baseline: async (pool, req, ctx) => {
      if (!(await authenticate(pool, req))) return { status: 401, body: '{}' }
      const { body, etag } = entryPoint(ctx)
      if (req.headers['if-none-match'] === etag) return { status: 304, body: '' }
      return { status: 200, body, headers: { etag } }
    },
    expect: 304,
  },
]
