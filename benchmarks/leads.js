/*
 * Lead and photo measurements of the benchmark: the dealer's webhook receiver,
 * 100 000 inquiries in the agency, intake → webhook latency at a sustained
 * rate, and photo pipeline throughput against sharp alone.
 */
import { createServer } from 'node:http'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import sharp from 'sharp'
import { ADMIN_MAIL, EXTERNAL_ID, call, listingBody } from './dealer.js'

export const inquiryBody = (email = `comprador.${randomUUID()}@example.com`) => ({
  ExternalId: EXTERNAL_ID,
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

/** The dealer's webhook endpoint: records when each buyer's inquiry arrived. */
export async function startReceiver() {
  const arrivals = new Map()
  const server = createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      try {
        const email = JSON.parse(Buffer.concat(chunks).toString()).Consulta?.Interesado?.Email
        if (email && !arrivals.has(email)) arrivals.set(email, performance.now())
      } catch {}
      res.writeHead(204).end()
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    close: () => server.close(),
  }
}

/** The agency's webhook points at the receiver; 100 000 inquiries fill its list. */
export async function setUpLeads(ctx, serviceUrl, databaseUrl, receiver, count = 100_000) {
  await call(ctx, serviceUrl, 'PUT', `/v3/notificaciones/${ADMIN_MAIL}`, {
    PublicacionConsultadaWebHook: {
      Callback: receiver.url,
      Secret: 'bench-secret-0123456789',
      Activo: true,
    },
  })
  await call(ctx, serviceUrl, 'POST', `/v3/consultas/${ADMIN_MAIL}`, inquiryBody())
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    // Copies of the API-made inquiry, one a minute back in time (≈ 69 days).
    const columns = (
      await client.query(
        `select column_name from information_schema.columns where table_name = 'inquiries'
         and column_name not in ('id', 'sid', 'received_at', 'audience_app_id') and is_generated = 'NEVER'`
      )
    ).rows.map((row) => row.column_name)
    await client.query(
      `insert into inquiries (sid, received_at, ${columns.join(', ')})
       select substr(md5(random()::text || g::text), 1, 16), now() - make_interval(mins => g), ${columns.join(', ')}
       from inquiries, generate_series(1, $1) as g
       where id = (select min(id) from inquiries)`,
      [count - 1]
    )
    // Vacuumed now, not by autovacuum in the middle of a measurement (it swung the
    // baseline's inquiry pages between 214 and 410 req/s from run to run).
    await client.query('vacuum analyze inquiries')
    await client.query('vacuum analyze inquiry_hour_counts')
  } finally {
    await client.end()
  }
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]

/**
 * Inquiries at `rate`/s for `warmUp` + `seconds`; latency from the POST's start
 * to the webhook's arrival, of the last `seconds` (the sustained rate). The first
 * `warmUp` seconds — pool connections made again after the idle set-up, the
 * first plans — are reported apart (`warmUp`).
 */
export async function intakeToWebhook(
  ctx,
  serviceUrl,
  receiver,
  rate = 50,
  seconds = 10,
  warmUp = 2
) {
  const sent = new Map()
  const statuses = []
  const answered = []
  const warm = { sent: new Map(), answered: [] }
  const total = rate * seconds
  const first = rate * warmUp
  const started = performance.now()
  const posts = []
  for (let i = 0; i < first + total; i++) {
    const due = started + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const email = `latencia.${i}.${randomUUID()}@example.com`
    const postedAt = performance.now()
    const into = i < first ? warm : { sent, answered }
    into.sent.set(email, postedAt)
    posts.push(
      fetch(`${serviceUrl}/v3/consultas/${ADMIN_MAIL}`, {
        method: 'POST',
        headers: { 'authorization': `Bearer ${ctx.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(inquiryBody(email)),
      }).then((response) => {
        into.answered.push(performance.now() - postedAt)
        if (into.answered === answered) statuses.push(response.status)
      })
    )
  }
  await Promise.all(posts)
  const deadline = performance.now() + 30_000
  while (
    [...sent.keys()].some((email) => !receiver.arrivals.has(email)) &&
    performance.now() < deadline
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const arrivals = (posted) =>
    [...posted]
      .filter(([email]) => receiver.arrivals.has(email))
      .map(([email, at]) => receiver.arrivals.get(email) - at)
      .sort((a, b) => a - b)
  const latencies = arrivals(sent)
  const warmLatencies = arrivals(warm.sent)
  // When the slowest leads were posted (ms after the measured part began): a tail that
  // clusters at one moment is a pause somewhere, a spread one is queueing.
  const measuredFrom = Math.min(...sent.values())
  const slowest = [...sent]
    .filter(([email]) => receiver.arrivals.has(email))
    .map(([email, at]) => ({
      postedAtMs: Math.round(at - measuredFrom),
      latencyMs: Math.round(receiver.arrivals.get(email) - at),
    }))
    .sort((a, b) => b.latencyMs - a.latencyMs)
    .slice(0, 10)
  return {
    sent: total,
    accepted: statuses.filter((status) => status === 201).length,
    delivered: latencies.length,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    // The POST's own answer: what the web process adds before the worker's part begins.
    intakeP50: Math.round(
      percentile(
        answered.sort((a, b) => a - b),
        50
      )
    ),
    intakeP99: Math.round(percentile(answered, 99)),
    slowest,
    warmUp: {
      seconds: warmUp,
      p50: Math.round(percentile(warmLatencies, 50)),
      p99: Math.round(percentile(warmLatencies, 99)),
      intakeP50: Math.round(
        percentile(
          warm.answered.sort((a, b) => a - b),
          50
        )
      ),
      intakeP99: Math.round(percentile(warm.answered, 99)),
    },
  }
}

/** A server of `count` distinct 12-megapixel JPEGs (4000×3000). */
export async function startPhotoServer(count) {
  const photos = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          noise: { type: 'gaussian', mean: 128 - i, sigma: 40 },
        },
      })
        .jpeg({ quality: 85 })
        .toBuffer()
    )
  )
  const server = createServer((req, res) => {
    const photo = photos[Number(/(\d+)\.jpg$/.exec(req.url)?.[1])]
    if (!photo) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length }).end(photo)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${server.address().port}`
  return {
    urls: photos.map((_, i) => `${base}/foto-${i}.jpg`),
    bytes: photos[0].length,
    close: () => server.close(),
  }
}

/** Photos/s of the service (create a used-car listing with `urls`, until every photo is Lista). */
export async function servicePhotoThroughput(ctx, serviceUrl, urls) {
  const externalId = `FOTOS-${Date.now()}`
  const started = performance.now()
  await call(
    ctx,
    serviceUrl,
    'POST',
    `/v3/publicaciones/${ADMIN_MAIL}`,
    listingBody({
      ExternalId: externalId,
      VersionYear: 2021,
      Kilometraje: 48000,
      Fotos: urls,
    })
  )
  for (;;) {
    const { body } = await call(
      ctx,
      serviceUrl,
      'GET',
      `/v3/publicaciones/${ADMIN_MAIL}/${externalId}/fotos`
    )
    const states = body._entries.map((entry) => entry.Estado)
    if (states.every((state) => state !== 'Pendiente')) {
      return {
        photos: urls.length,
        ready: states.filter((state) => state === 'Lista').length,
        seconds: (performance.now() - started) / 1000,
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The same work with sharp alone, two at a time like one worker: download,
 * decode, rotate, resize, encode twice. The plain recipe decodes the download
 * for each encode. `sameRecipe`: sharp doing exactly what the service does
 * (app/listings/services/process_photo.ts): the download in a file, a JPEG at
 * least twice the output width decoded at 1/2, 1/4 or 1/8 by libjpeg
 * (`file[shrink=N]`), and the thumbnail made from the resized image.
 */
export async function sharpPhotoThroughput(urls, { concurrency = 2, sameRecipe = false } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'bench-sharp-'))
  const started = performance.now()
  const queue = [...urls]
  const options = { limitInputPixels: 50_000_000 }
  const plain = async (bytes) => {
    await sharp(bytes, options).metadata()
    const upright = () => sharp(bytes, options).rotate()
    await upright()
      .resize({ width: 1920, withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer()
    await upright().resize({ width: 400 }).jpeg({ quality: 75 }).toBuffer()
  }
  const asTheService = async (bytes) => {
    const file = join(folder, randomUUID())
    writeFileSync(file, bytes)
    const { width } = await sharp(file, options).metadata()
    const shrink = [8, 4, 2].find((factor) => Math.floor(width / factor) >= 1920)
    const image = await sharp(shrink ? `${file}[shrink=${shrink}]` : file, options)
      .rotate()
      .resize({ width: 1920, withoutEnlargement: true })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer()
    await sharp(image).resize({ width: 400 }).jpeg({ quality: 75 }).toBuffer()
    rmSync(file)
  }
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let url = queue.shift(); url; url = queue.shift()) {
          const bytes = Buffer.from(await (await fetch(url)).arrayBuffer())
          await (sameRecipe ? asTheService(bytes) : plain(bytes))
        }
      })
    )
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  return { photos: urls.length, seconds: (performance.now() - started) / 1000 }
}
