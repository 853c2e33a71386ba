/*
 * What the benchmark loads, side by side: each scenario is one request against
 * the service and the bare baseline's handler doing the same queries and JSON.
 * `setup(ctx)` runs once after seeding and may add data to `ctx`.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { ADMIN_MAIL, EXTERNAL_ID, listingBody } from './dealer.js'
import { inquiryBody } from './leads.js'
import { seedSyncListings } from './seed.js'

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
const catalogRevision = (pool) =>
  pool.query('select revision from catalog_state where id = $1 limit 1', [1])

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
    request: (ctx) => ({
      path: '/v3',
      headers: { 'authorization': `Bearer ${ctx.token}`, 'if-none-match': entryPoint(ctx).etag },
    }),
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
      return {
        status: 200,
        body: JSON.stringify({
          _links: { self: { href: '/v3/marcas?q=toyota' } },
          _entries: rows.map(brandFull),
        }),
      }
    },
  },
  {
    name: 'GET /v3/modelos/bestmatch',
    request: (ctx) => ({
      path: '/v3/modelos/bestmatch?make=toyota&model=corolla',
      headers: auth(ctx),
    }),
    baseline: async (pool, req) => {
      if (!(await authenticate(pool, req))) return unauthorized
      await catalogRevision(pool)
      const brands = await pool.query(
        RANK(
          'brands',
          'catalog_fold(brands.name) = catalog_fold($1) or catalog_fold($1) = any(brands.codenames)'
        ).replace('%EXTRA%', ''),
        ['toyota']
      )
      const brandId = brands.rows[0].id
      const models = await pool.query(
        RANK(
          'vehicle_models',
          'catalog_fold(vehicle_models.name) = catalog_fold($1) or vehicle_models.codename = catalog_fold($1)'
        ).replace('%EXTRA%', 'and vehicle_models.brand_id = $2'),
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
          Marca: m.brand_name,
          Nombre: m.name,
          Codename: m.codename,
          Carrocerias: m.body_types,
          Versiones: { _links: { self: { href: `/v3/versiones?modelo=${m.id}` } } },
          _links: {
            self: { href: `/v3/modelos/${m.id}` },
            marca: { href: `/v3/marcas/${m.brand_id}` },
          },
        }),
      }
    },
  },
  {
    name: 'GET /v3/versiones?modelo=',
    setup: async (ctx, serviceUrl) => {
      const response = await fetch(`${serviceUrl}/v3/modelos/bestmatch?make=toyota&model=corolla`, {
        headers: auth(ctx),
      })
      ctx.corollaId = Number(/\d+$/.exec((await response.json())._links.self.href)[0])
    },
    request: (ctx) => ({ path: `/v3/versiones?modelo=${ctx.corollaId}`, headers: auth(ctx) }),
    baseline: async (pool, req, ctx) => {
      if (!(await authenticate(pool, req))) return unauthorized
      await catalogRevision(pool)
      const { rows } = await pool.query(
        `select v.id, v.name, v.codename, v.year, v.propulsion, v.transmission, v.power, v.displacement, v.body_type,
                v.segment, m.brand_id, b.name as brand_name, v.model_id, m.name as model_name
         from versions v join vehicle_models m on m.id = v.model_id join brands b on b.id = m.brand_id
         where v.model_id = $1 and v.new_market = $2 order by v.year desc, v.name asc, v.id asc`,
        [ctx.corollaId, true]
      )
      // As the service: only an empty list asks whether the model exists.
      if (rows.length === 0)
        await pool.query('select id from vehicle_models where id = $1 limit 1', [ctx.corollaId])
      const entries = rows.map((v) => ({
        VersionYear: v.year,
        Propulsion: v.propulsion,
        Transmision: v.transmission,
        Potencia: v.power,
        Cilindrada: v.displacement,
        Marca: v.brand_name,
        Modelo: v.model_name,
        Nombre: v.name,
        Codename: v.codename,
        Carroceria: v.body_type,
        Segmento: v.segment,
        _links: {
          self: { href: `/v3/versiones/${v.id}` },
          modelo: { href: `/v3/modelos/${v.model_id}` },
          marca: { href: `/v3/marcas/${v.brand_id}` },
        },
      }))
      return {
        status: 200,
        body: JSON.stringify({
          _links: { self: { href: `/v3/versiones?modelo=${ctx.corollaId}` } },
          _entries: entries,
        }),
      }
    },
  },
  {
    name: 'GET listing (full)',
    request: (ctx) => ({ path: ctx.listingPath, headers: auth(ctx) }),
    baseline: async (pool, req) => {
      const caller = await authenticate(pool, req)
      if (!caller) return unauthorized
      const row = await showListing(pool, caller.id)
      return {
        status: 200,
        body: JSON.stringify(listingFull(row)),
        headers: { etag: listingEtag(row) },
      }
    },
  },
  {
    name: 'GET listing (ref)',
    request: (ctx) => ({
      path: ctx.listingPath,
      headers: { ...auth(ctx), accept: 'application/vnd.service.ref+json' },
    }),
    baseline: async (pool, req) => {
      const caller = await authenticate(pool, req)
      if (!caller) return unauthorized
      const row = await showListing(pool, caller.id)
      const ref = {
        etag: listingEtag(row),
        ExternalId: row.external_id,
        EstadoActual: 'Activa',
        href: listingHref(row),
        title: `${row.brand_name} ${row.model_name} ${row.version_name} ${row.year}`,
      }
      return { status: 200, body: JSON.stringify(ref), headers: { etag: ref.etag } }
    },
  },
  {
    name: 'GET listing (304)',
    request: (ctx) => ({
      path: ctx.listingPath,
      headers: { ...auth(ctx), 'if-none-match': ctx.listingEtag },
    }),
    expect: 304,
    baseline: async (pool, req) => {
      const caller = await authenticate(pool, req)
      if (!caller) return unauthorized
      const row = await showListing(pool, caller.id)
      if (req.headers['if-none-match'] === listingEtag(row)) return { status: 304, body: '' }
      return { status: 200, body: JSON.stringify(listingFull(row)) }
    },
  },
  {
    name: 'PUT listing (one row)',
    request: (ctx) => ({
      path: ctx.listingPath,
      method: 'PUT',
      headers: putHeaders(ctx),
      body: putBody(),
      nextBody: putBody,
    }),
    baseline: updateListing,
  },
  {
    // A dealer syncing its stock: every request edits another of 500 listings.
    name: 'PUT listing (500 listings round-robin)',
    setup: async (ctx) => {
      ctx.syncPaths = await seedSyncListings(ctx.databaseUrl, 500)
    },
    request: (ctx) => ({
      paths: ctx.syncPaths,
      method: 'PUT',
      headers: putHeaders(ctx),
      body: putBody(),
      nextBody: putBody,
    }),
    baseline: updateListing,
  },
  {
    name: 'GET /v3/consultas (page 1 of 100 000)',
    request: (ctx) => ({ path: `/v3/consultas/${ADMIN_MAIL}`, headers: auth(ctx) }),
    baseline: (pool, req) => inquiryPage(pool, req, 1),
  },
  {
    name: 'GET /v3/consultas (page 99 of 100 000)',
    request: (ctx) => ({ path: `/v3/consultas/${ADMIN_MAIL}?pagina=99`, headers: auth(ctx) }),
    baseline: (pool, req) => inquiryPage(pool, req, 99),
  },
  {
    name: 'POST /v3/consultas (intake)',
    pausesWorker: true,
    request: (ctx) => ({
      path: `/v3/consultas/${ADMIN_MAIL}`,
      method: 'POST',
      headers: { ...auth(ctx), 'content-type': 'application/json' },
      body: JSON.stringify(inquiryBody('carga@example.com')),
    }),
    expect: 201,
    baseline: intake,
  },
]

const putHeaders = (ctx) => ({ ...auth(ctx), 'content-type': 'application/json' })

let putTurn = 0

/**
 * Each PUT moves the price: a PUT with the values the listing already has
 * writes nothing (docs/design.md §19), and the bench measures the write.
 */
function putBody() {
  putTurn += 1
  const { ExternalId, Marca, Modelo, Version, Transmision, Propulsion, ...edit } = listingBody({
    Descripcion: 'Precio actualizado.',
  })
  edit.Precio = { ...edit.Precio, Importe: edit.Precio.Importe + (putTurn % 1000) }
  return JSON.stringify(edit)
}

/** One `UPDATE … RETURNING` of the listing in the path, answered as the service answers it. */
async function updateListing(pool, req) {
  const caller = await authenticate(pool, req)
  if (!caller) return unauthorized
  const body = JSON.parse(await readBody(req))
  const externalId = decodeURIComponent(req.url.split('/').pop())
  const { rows } = await pool.query(
    `update listings set description = $4, colour = $5, price_currency = $6, price_amount = $7, revision = revision + 1, updated_at = now()
     where app_id = $1 and admin_email = $2 and lower(external_id) = lower($3) returning *`,
    [
      caller.id,
      ADMIN_MAIL,
      externalId,
      body.Descripcion,
      body.Color,
      body.Precio.Moneda,
      body.Precio.Importe,
    ]
  )
  return {
    status: 200,
    body: JSON.stringify(listingFull(rows[0])),
    headers: { etag: listingEtag(rows[0]) },
  }
}

async function inquiryPage(pool, req, pagina) {
  const caller = await authenticate(pool, req)
  if (!caller) return unauthorized
  const { rows: agencies } = await pool.query('select id from agencies where admin_email = $1', [
    ADMIN_MAIL,
  ])
  const to = new Date()
  const from = new Date(to.getTime() - 90 * 86_400_000)
  const [page, count] = await Promise.all([
    pool.query(
      `select * from inquiries where agency_id = $1 and audience_app_id = $2 and received_at >= $3 and received_at < $4
       order by received_at desc, id desc limit 100 offset $5`,
      [agencies[0].id, caller.id, from, to, (pagina - 1) * 100]
    ),
    countInquiries(pool, agencies[0].id, caller.id, from, to),
  ])
  const self = `/v3/consultas/${ADMIN_MAIL}`
  const template = `${self}{?operador,externalid,desde,hasta,pagina}`
  const total = Number(count)
  const links = { self: { href: `${self}?pagina=${pagina}` } }
  if (pagina > 1) links.prev = { href: `${self}?pagina=${pagina - 1}` }
  if (pagina * 100 < total) links.next = { href: `${self}?pagina=${pagina + 1}` }
  links.page = { href: template, templated: true }
  return {
    status: 200,
    body: JSON.stringify({
      Desde: from.toISOString(),
      Hasta: to.toISOString(),
      Pagina: pagina,
      Total: total,
      PerPagina: 100,
      _links: links,
      _entries: page.rows.map(inquiryFull),
    }),
  }
}

/** The Total of a page, the way the service counts it: hourly counters, partial hours at the ends row by row. */
async function countInquiries(pool, agencyId, appId, from, to) {
  const HOUR = 3_600_000
  const firstHour = new Date(Math.ceil(from.getTime() / HOUR) * HOUR)
  const lastHour = new Date(Math.floor(to.getTime() / HOUR) * HOUR)
  const { rows } = await pool.query(
    `select coalesce((select sum(total) from inquiry_hour_counts
        where agency_id = $1 and audience_app_id in ($2) and hour >= $3 and hour < $4), 0)
      + (select count(*) from inquiries where agency_id = $1 and audience_app_id in ($2)
          and ((received_at >= $5 and received_at < $3) or (received_at >= $4 and received_at < $6))) as total`,
    [agencyId, appId, firstHour, lastHour, from, to]
  )
  return rows[0].total
}

let boss = null

/**
 * The intake's bare work: the listing and agency reads, then one transaction
 * inserting the inquiry, its webhook delivery and that delivery's pg-boss job
 * (pg-boss's own send, on the transaction's client). With `x-outbox: 1` (the
 * "outbox cost" measurement of run.js) the transaction also runs what
 * app/apps/services/app_events.ts emits for the inquiry's ConsultaRecibida to
 * an app not subscribed to `consultas`: the app_events INSERT and the
 * subscription lookup, the SQL Lucid sends for them.
 */
async function intake(pool, req, ctx) {
  const caller = await authenticate(pool, req)
  if (!caller) return unauthorized
  const body = JSON.parse(await readBody(req))
  const listing = await showListing(pool, caller.id)
  const { rows: configs } = await pool.query(
    'select * from notification_configs where agency_id = $1 and app_id = $2',
    [listing.agency_id, caller.id]
  )
  boss ??= startBoss()
  const sender = await boss
  const client = await pool.connect()
  try {
    await client.query('begin')
    const buyer = body.Interesado
    const vehicle = {
      externalId: listing.external_id,
      brand: listing.brand_name,
      model: listing.model_name,
      version: listing.version_name,
      versionYear: listing.year,
    }
    const { rows } = await client.query(
      `insert into inquiries (sid, app_id, source_app_id, agency_id, listing_id, operator_email, kind, origin, external_id, vehicle,
         interest, first_name, last_name, email, phone, comment, received_at, resend_open, resend_closes_at)
       values ($1, $2, $2, $3, $4, $5, 'listing', $6, $7, $8, $9, $10, $11, $12, $13, $14, now(), true, now() + interval '30 days')
       returning *`,
      [
        randomBytes(5).toString('hex'),
        caller.id,
        listing.agency_id,
        listing.id,
        ADMIN_MAIL,
        body.OrigenLead,
        listing.external_id,
        vehicle,
        buyer.Interes,
        buyer.Nombre,
        buyer.Apellido,
        buyer.Email,
        buyer.Telefono,
        buyer.Comentario,
      ]
    )
    const inquiry = rows[0]
    if (req.headers['x-outbox'] === '1') await appEvent(client, caller.id, inquiry)
    for (const config of configs.filter((c) => c.webhook_active)) {
      const payload = {
        configId: config.id,
        body: JSON.stringify({ Consulta: inquiryFull(inquiry) }),
      }
      const { rows: deliveries } = await client.query(
        `insert into deliveries (channel, owner_type, owner_id, app_id, target, message_id, payload, queue, next_attempt_at)
         values ('webhook', 'inquiry', $1, $2, $3, $4, $5, 'leads.webhook', now()) returning id`,
        [
          String(inquiry.id),
          caller.id,
          config.webhook_callback,
          `msg_${randomBytes(12).toString('hex')}`,
          payload,
        ]
      )
      await sender.send(
        'leads.webhook',
        { deliveryId: deliveries[0].id },
        { db: { executeSql: (text, values) => client.query(text, values) } }
      )
    }
    await client.query('commit')
    return {
      status: 201,
      body: JSON.stringify(inquiryFull(inquiry)),
      headers: { location: `/v3/consultas/${ADMIN_MAIL}/${inquiry.sid}` },
    }
  } catch (error) {
    await client.query('rollback')
    throw error
  } finally {
    client.release()
  }
}

/** The outbox write of a ConsultaRecibida (AppEvents.emit), as the service's statement log shows it. */
async function appEvent(client, appId, inquiry) {
  const self = `/v3/consultas/${ADMIN_MAIL}/${inquiry.sid}`
  const payload = {
    Tipo: 'ConsultaRecibida',
    Momento: inquiry.received_at.toISOString(),
    Agencia: { AdminMail: ADMIN_MAIL, href: `/v3/agencias/${ADMIN_MAIL}` },
    Recurso: {
      href: self,
      title: `${inquiry.email}, ${inquiry.vehicle.brand} ${inquiry.vehicle.model} ${inquiry.vehicle.version} ${inquiry.vehicle.versionYear}, ${inquiry.external_id}`,
    },
    Datos: {},
  }
  await client.query(
    `with event as (
       insert into app_events (id, app_id, topic, kind, payload, created_at)
       values ($1, $2, $3, $4, $5, $6)
     )
     select id, callback from app_webhooks
     where app_id = $7 and topic = $8 and active
     limit 1`,
    [
      randomUUID(),
      appId,
      'consultas',
      'ConsultaRecibida',
      JSON.stringify(payload),
      new Date(),
      appId,
      'consultas',
    ]
  )
}

async function startBoss() {
  const { PgBoss } = await import('pg-boss')
  const sender = new PgBoss({
    connectionString: process.env.DATABASE_URL,
    schema: 'pgboss',
    max: 2,
    supervise: false,
    schedule: false,
    migrate: false,
  })
  sender.on('error', () => {})
  await sender.start()
  return sender
}

const money = (value) => (value ? { Moneda: value.currency, Importe: Number(value.amount) } : null)

function inquiryFull(row) {
  const vehicle = row.vehicle
  const self = `/v3/consultas/${ADMIN_MAIL}/${row.sid}`
  return {
    Momento: row.received_at.toISOString(),
    OrigenLead: row.origin,
    TipoAnuncio: row.kind === 'listing' ? 'Publicacion' : 'Catalogo',
    Auto: {
      ExternalId: vehicle.externalId,
      RefStock: vehicle.refStock,
      Marca: vehicle.brand,
      Modelo: vehicle.model,
      Version: vehicle.version,
      VersionYear: vehicle.versionYear,
      Kilometraje: vehicle.mileage,
      Color: vehicle.color,
      BodyType: vehicle.bodyType,
      Estado: vehicle.condition,
      Precio: money(vehicle.price),
      Anticipo: money(vehicle.downPayment),
      Cuota: money(vehicle.installment),
    },
    Interesado: {
      Interes: row.interest,
      Nombre: row.first_name,
      Apellido: row.last_name,
      Email: row.email,
      Telefono: row.phone,
      DocIdentidad: row.document_id,
      Provincia: row.province,
      Ciudad: row.city,
      Comentario: row.comment,
      InfoOperacion: null,
    },
    OperadorResponsable: row.operator_email,
    _links: {
      self: { href: self },
      entregas: { href: `${self}/entregas` },
      resendwebhook: { href: `${self}/resendwebhook`, method: 'POST' },
    },
  }
}

function readBody(req) {
  return new Promise((resolve) => {
    let data = ''
    req.on('data', (chunk) => (data += chunk))
    req.on('end', () => resolve(data))
  })
}

async function showListing(pool, appId) {
  const { rows } = await pool.query({
    name: 'listings_show',
    text: 'select * from listings where app_id = $1 and admin_email = $2 and lower(external_id) = lower($3) limit 1',
    values: [appId, ADMIN_MAIL, EXTERNAL_ID],
  })
  return rows[0]
}

const listingHref = (row) =>
  `/v3/publicaciones/${row.admin_email}/${encodeURIComponent(row.external_id)}`
const listingEtag = (row) => `"${row.id}.${row.revision}"`
const valor = (currency, amount) =>
  currency === null ? null : { Moneda: currency, Importe: Number(amount) }

/** The same Publicacion the service answers, from the same row. */
function listingFull(row) {
  const self = listingHref(row)
  return {
    ExternalId: row.external_id,
    RefStock: row.ref_stock,
    EstadoActual: 'Activa',
    Exposicion: row.exposure,
    OperadorResponsable: row.operator_email,
    Marca: row.brand_name,
    Modelo: row.model_name,
    Version: row.version_name,
    VersionYear: row.year,
    Transmision: row.transmission,
    Propulsion: row.propulsion,
    Kilometraje: row.mileage,
    Color: row.colour,
    Descripcion: row.description,
    DatosTecnicosCustom: row.custom_specs.map((spec) => ({ Nombre: spec.name, Valor: spec.value })),
    Precio: valor(row.price_currency, row.price_amount),
    Adelanto: valor(row.down_payment_currency, row.down_payment_amount),
    Cuota: valor(row.installment_currency, row.installment_amount),
    Fotos: row.photo_keys.map((key) => `http://localhost/fotos/${key}`),
    CertificadoDeGarantiaUsado: null,
    Locacion: { Region: row.region_name, Ciudad: row.city_name, Direccion: row.address },
    Telefono: row.phone,
    Consultas: {
      _links: {
        self: {
          href: `/v3/consultas/${row.admin_email}?externalid=${encodeURIComponent(row.external_id)}`,
        },
      },
    },
    _links: {
      self: { href: self },
      agencia: { href: `/v3/agencias/${row.admin_email}` },
      fotos: { href: `${self}/fotos` },
      edit: { href: self, method: 'PUT' },
      precio: { href: self, method: 'PATCH' },
      archivar: { href: self, method: 'DELETE' },
      suspender: { href: `${self}/suspender`, method: 'PATCH' },
      publica: { href: `/autos/${row.slug}` },
    },
  }
}
