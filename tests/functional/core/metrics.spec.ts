/*
 * GET /metrics (docs/design.md §14): who may read it, the Prometheus text
 * format, and numbers that move as requests, jobs and deliveries happen.
 */
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import JobRunner from '#core/jobs/runner'
import { startMetricsServer } from '#core/metrics/endpoint'
import { createCaller } from '#tests/helpers/apps'
import { freePort } from '#tests/helpers/free_port'
import { raw } from '#tests/helpers/http'
import { seedCatalog } from '#tests/helpers/catalog'
import { startReceiver } from '#tests/helpers/receiver'
import { carPhoto } from '#tests/helpers/car_photos'
import { listingBody } from '#tests/helpers/listings'
import { until } from '#tests/helpers/until'
import {
  dealerWorld,
  inquiryBody,
  settledDeliveries,
  sidOf,
  startLeadWorkers,
} from '#tests/helpers/leads'

const TOKEN = 'metricas-de-prueba-0123456789'

const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (-?[0-9.]+(?:e[+-]?\d+)?|NaN|[+-]Inf)$/

/** Parses the text format strictly: every line a comment (HELP/TYPE) or a sample. */
function parse(text: string) {
  const samples = new Map<string, number>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue
    const match = SAMPLE.exec(line)
    if (!match) throw new Error(`Not Prometheus text: ${line}`)
    samples.set(match[1] + (match[2] ?? ''), Number(match[4]))
  }
  return samples
}

async function read() {
  const response = await raw('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status}`)
  return parse(await response.text())
}

const value = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0

test.group('GET /metrics: access', (group) => {
  group.each.teardown(() => env.set('METRICS_TOKEN', ''))

  test('404 on the main port when no METRICS_TOKEN is configured', async ({ assert }) => {
    env.set('METRICS_TOKEN', '')
    const response = await raw('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })
    assert.equal(response.status, 404)
  })

  test('401 problem without the token or with another; 200 Prometheus text with it', async ({
    assert,
  }) => {
    env.set('METRICS_TOKEN', TOKEN)
    const { token: appToken } = await createCaller()
    for (const authorization of [undefined, 'Bearer otro-token', `Bearer ${appToken}`, TOKEN]) {
      const response = await raw('/metrics', {
        headers: authorization ? { Authorization: authorization } : {},
      })
      assert.equal(response.status, 401, String(authorization))
      assert.match(response.headers.get('content-type')!, /^application\/problem\+json/)
      assert.equal(response.headers.get('www-authenticate'), 'Bearer realm="metrics"')
    }
    const response = await raw('/metrics', { headers: { Authorization: `Bearer ${TOKEN}` } })
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/)
    const samples = parse(await response.text())
    for (const name of [
      'process_cpu_seconds_total',
      'db_pool_max{connection="postgres"}',
      'listing_photos_pending',
      'inquiries_received_1h{kind="listing"}',
    ])
      assert.isTrue(samples.has(name), name)
  })

  test('on METRICS_PORT: no credentials, only GET /metrics', async ({ assert }) => {
    const port = await freePort()
    const server = await startMetricsServer(port, '127.0.0.1')
    try {
      const response = await fetch(`http://127.0.0.1:${port}/metrics`)
      assert.equal(response.status, 200)
      assert.isTrue(parse(await response.text()).has('process_cpu_seconds_total'))
      assert.equal((await fetch(`http://127.0.0.1:${port}/v3`)).status, 404)
      assert.equal(
        (await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status,
        404
      )
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

test.group('GET /metrics: numbers move', (group) => {
  group.setup(async () => {
    env.set('METRICS_TOKEN', TOKEN)
    await seedCatalog()
    return () => env.set('METRICS_TOKEN', '')
  })

  test('requests, by route pattern and status', async ({ assert }) => {
    const { token } = await createCaller()
    const ok = 'http_request_duration_seconds_count{route="/v3",method="GET",status="200"}'
    const unauthorized =
      'http_request_duration_seconds_count{route="/v3",method="GET",status="401"}'
    const unmatched =
      'http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}'
    const before = await read()
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await raw('/v3', { headers: { Authorization: `Bearer ${token}` } })).status,
        200
      )
    assert.equal((await raw('/v3')).status, 401)
    assert.equal((await raw(`/no-existe/${Date.now()}`)).status, 404)
    const after = await read()
    assert.equal(value(after, ok) - value(before, ok), 3)
    assert.equal(value(after, unauthorized) - value(before, unauthorized), 1)
    assert.equal(value(after, unmatched) - value(before, unmatched), 1)
    // Cumulative buckets, ending at the count.
    const labels = 'route="/v3",method="GET",status="200"'
    const buckets = [...after.entries()].filter(([key]) =>
      key.startsWith(`http_request_duration_seconds_bucket{${labels},le=`)
    )
    assert.lengthOf(buckets, 12)
    for (let i = 1; i < buckets.length; i++) assert.isAtLeast(buckets[i][1], buckets[i - 1][1])
    assert.equal(buckets.at(-1)![0], `http_request_duration_seconds_bucket{${labels},le="+Inf"}`)
    assert.equal(buckets.at(-1)![1], value(after, ok))
    assert.isAbove(value(after, `http_request_duration_seconds_sum{${labels}}`), 0)
    // Raw URLs never become labels.
    assert.isFalse([...after.keys()].some((key) => key.includes('no-existe')))
  })

  test('job queues: depth, deferred jobs and the age of the oldest', async ({ assert }) => {
    const runner = await app.container.make(JobRunner)
    const queue = `metrics.test.${process.pid}.${Date.now()}`
    // A queue no process works: what is sent stays queued.
    runner.register({ name: queue, handler: () => import('#core/http/prune_idempotency_keys_job') })
    const boss = await runner.boss()
    try {
      await runner.send(queue, {})
      await runner.send(queue, {})
      await runner.send(queue, {}, { startAfter: 3600 })
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const samples = await read()
      assert.equal(samples.get(`jobs_queued{queue="${queue}"}`), 2)
      assert.equal(samples.get(`jobs_deferred{queue="${queue}"}`), 1)
      assert.equal(samples.get(`jobs_active{queue="${queue}"}`), 0)
      assert.isAtLeast(samples.get(`jobs_oldest_queued_age_seconds{queue="${queue}"}`)!, 1)
    } finally {
      await boss.deleteQueue(queue)
    }
  })

  test('an inquiry delivered to a real receiver: intake, request and delivery numbers move', async ({
    assert,
  }) => {
    await startLeadWorkers()
    const receiver = await startReceiver()
    try {
      const world = await dealerWorld()
      const config = {
        PublicacionConsultadaWebHook: {
          Callback: receiver.url('/hook'),
          Secret: 'whsec_' + Buffer.from('clave-de-prueba-de-32-bytes-1234').toString('base64'),
          Activo: true,
        },
      }
      const put = await raw(`/v3/notificaciones/${world.adminMail}`, {
        method: 'PUT',
        headers: { 'Authorization': `Bearer ${world.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(config),
      })
      assert.equal(put.status, 200)
      const delivered = 'deliveries_settled_24h{channel="webhook",outcome="delivered"}'
      const intake = 'inquiries_received_5m{kind="listing"}'
      const created =
        'http_request_duration_seconds_count{route="/v3/consultas/:adminmail",method="POST",status="201"}'
      const before = await read()
      const response = await raw(`/v3/consultas/${world.adminMail}`, {
        method: 'POST',
        headers: { 'Authorization': `Bearer ${world.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(inquiryBody(world.listing.externalId)),
      })
      assert.equal(response.status, 201)
      const sid = sidOf(response.headers.get('location')!)
      const [delivery] = await settledDeliveries(sid, 1)
      assert.equal(delivery.status, 'delivered')
      assert.lengthOf(receiver.requests, 1)
      const after = await read()
      assert.equal(value(after, delivered) - value(before, delivered), 1)
      assert.equal(value(after, intake) - value(before, intake), 1)
      assert.equal(value(after, created) - value(before, created), 1)
    } finally {
      await receiver.close()
    }
  }).timeout(60_000)
})

test.group('GET /metrics: photo outcomes', (group) => {
  group.setup(async () => {
    env.set('METRICS_TOKEN', TOKEN)
    await seedCatalog()
    return () => env.set('METRICS_TOKEN', '')
  })

  test('a photo downloaded and one refused move ready and rejected', async ({ assert }) => {
    const runner = await app.container.make(JobRunner)
    await runner.work({ work: ['photos.fetch'] })
    const receiver = await startReceiver()
    try {
      receiver.route('/auto.jpg', {
        status: 200,
        headers: { 'content-type': 'image/jpeg' },
        body: await carPhoto(),
      })
      receiver.route('/falta.jpg', { status: 404 })
      const world = await dealerWorld()
      const ready = 'listing_photos_settled_24h{outcome="ready"}'
      const rejected = 'listing_photos_settled_24h{outcome="rejected"}'
      const before = await read()
      const body = listingBody({
        VersionYear: new Date().getFullYear() - 2,
        Kilometraje: 30000,
        Fotos: [receiver.url('/auto.jpg'), receiver.url('/falta.jpg')],
      })
      const created = await raw(`/v3/publicaciones/${world.adminMail}`, {
        method: 'POST',
        headers: { 'Authorization': `Bearer ${world.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      })
      assert.equal(created.status, 201, await created.text())
      const after = await until(
        () => read(),
        (samples) =>
          value(samples, 'listing_photos_pending') === value(before, 'listing_photos_pending'),
        30_000
      )
      assert.equal(value(after, ready) - value(before, ready), 1)
      assert.equal(value(after, rejected) - value(before, rejected), 1)
    } finally {
      await receiver.close()
    }
  }).timeout(60_000)
})
