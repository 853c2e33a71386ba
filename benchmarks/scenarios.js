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

const auth = (ctx) => ({ authorization: `Bearer ${ctx.token}` })
const unauthorized = { status: 401, body: '{}' }

/** The catalogue's ETag input: its revision, read on every catalogue request. */
const catalogRevision = (pool) => pool.query('select revision from catalog_state where id = $1 limit 1', [1])

const brandFull = (b) => ({
  Nombre: b.name,
  Codenames: b.codenames,
  Modelos: { _links: { self: { href: `/v3/modelos?marca=${b.id}` } } },
  _links: { self: { href: `/v3/marcas/${b.id}` } },
})

const RANK = (table, exact) => `select ${table}.id, (${exact}) as exact,
  catalog_fold(${table}.name) like catalog_fold($1) || '%' as prefix,
  similarity(catalog_fold(${table}.name), catalog_fold($1)) as score
  from ${table} where ${table}.search like '%' || catalog_fold($1) || '%' %EXTRA%
  order by exact desc, prefix desc, score desc, ${table}.id asc limit 50`

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
  {
    name: 'GET /v3/marcas?q=toyota',
    request: (ctx) => ({ path: '/v3/marcas?q=toyota', headers: auth(ctx) }),
    baseline: async (pool, req) => {
      if (!(await authenticate(pool, req))) return unauthorized
      await catalogRevision(pool)
      const { rows } = await pool.query(
        `select id, name, codename, codenames, new_market from brands
         where brands.search like '%' || catalog_fold($1) || '%' order by name asc, id asc`,
        ['toyota']
      )
      return { status: 200, body: JSON.stringify({ _links: { self: { href: '/v3/marcas?q=toyota' } }, _entries: rows.map(brandFull) }) }
    },
  },
  {
    name: 'GET /v3/modelos/bestmatch',
    request: (ctx) => ({ path: '/v3/modelos/bestmatch?make=toyota&model=corolla', headers: auth(ctx) }),
    baseline: async (pool, req) => {
      if (!(await authenticate(pool, req))) return unauthorized
      await catalogRevision(pool)
      const brands = await pool.query(
        RANK('brands', 'catalog_fold(brands.name) = catalog_fold($1) or catalog_fold($1) = any(brands.codenames)').replace('%EXTRA%', ''),
        ['toyota']
      )
      const brandId = brands.rows[0].id
      const models = await pool.query(
        RANK('vehicle_models', 'catalog_fold(vehicle_models.name) = catalog_fold($1) or vehicle_models.codename = catalog_fold($1)').replace('%EXTRA%', 'and vehicle_models.brand_id = $2'),
        ['corolla', brandId]
      )
      const { rows } = await pool.query(
        `select m.id, m.name, m.codename, m.body_types, m.brand_id, b.name as brand_name
         from vehicle_models m join brands b on b.id = m.brand_id where m.id = $1`,
        [models.rows[0].id]
      )
      const m = rows[0]
      return {
        status: 200,
        body: JSON.stringify({
          Marca: m.brand_name, Nombre: m.name, Codename: m.codename, Carrocerias: m.body_types,
          Versiones: { _links: { self: { href: `/v3/versiones?modelo=${m.id}` } } },
          _links: { self: { href: `/v3/modelos/${m.id}` }, marca: { href: `/v3/marcas/${m.brand_id}` } },
        }),
      }
    },
  },
  {
    name: 'GET /v3/versiones?modelo=',
    setup: async (ctx, serviceUrl) => {
      const response = await fetch(`${serviceUrl}/v3/modelos/bestmatch?make=toyota&model=corolla`, { headers: auth(ctx) })
      ctx.corollaId = Number(/\d+$/.exec((await response.json())._links.self.href)[0])
    },
    request: (ctx) => ({ path: `/v3/versiones?modelo=${ctx.corollaId}`, headers: auth(ctx) }),
    baseline: async (pool, req, ctx) => {
      if (!(await authenticate(pool, req))) return unauthorized
      await catalogRevision(pool)
      await pool.query('select id from vehicle_models where id = $1 limit 1', [ctx.corollaId])
      const { rows } = await pool.query(
        `select v.id, v.name, v.codename, v.year, v.propulsion, v.transmission, v.power, v.displacement, v.body_type,
                v.segment, m.brand_id, b.name as brand_name, v.model_id, m.name as model_name
         from versions v join vehicle_models m on m.id = v.model_id join brands b on b.id = m.brand_id
         where v.model_id = $1 and v.new_market = $2 order by v.year desc, v.name asc, v.id asc`,
        [ctx.corollaId, true]
      )
      const entries = rows.map((v) => ({
        VersionYear: v.year, Propulsion: v.propulsion, Transmision: v.transmission, Potencia: v.power,
        Cilindrada: v.displacement, Marca: v.brand_name, Modelo: v.model_name, Nombre: v.name, Codename: v.codename,
        Carroceria: v.body_type, Segmento: v.segment,
        _links: { self: { href: `/v3/versiones/${v.id}` }, modelo: { href: `/v3/modelos/${v.model_id}` }, marca: { href: `/v3/marcas/${v.brand_id}` } },
      }))
      return { status: 200, body: JSON.stringify({ _links: { self: { href: `/v3/versiones?modelo=${ctx.corollaId}` } }, _entries: entries }) }
    },
  },
]
