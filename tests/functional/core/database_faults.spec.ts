/*
 * The database is never the client's problem (docs/design.md §13): while
 * PostgreSQL is away every request answers 2xx or 503 + Retry-After (a
 * problem document), never 500; every 201 is stored; the pool and the job
 * runner reconnect by themselves and the service answers again within
 * seconds.
 *
 * The restart tests stop and start the embedded PostgreSQL of the suite
 * (tmp/pg-test): SIGINT to the postmaster, PostgreSQL's fast shutdown (what
 * `pg_ctl restart -m fast` does), then a new postmaster on the same port. On
 * a machine database (DATABASE_URL) they skip; the pg_terminate_backend test,
 * which drops every connection of the service in the same way, always runs.
 */
import { test } from '@japa/runner'
import pg from 'pg'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { ownedServer } from '#core/database/embedded'
import { seedCatalog } from '#tests/helpers/catalog'
import { dealerWorld, inquiryBody, sidOf, startLeadWorkers } from '#tests/helpers/leads'
import { startReceiver } from '#tests/helpers/receiver'
import { listingBody, uniqueExternalId } from '#tests/helpers/listings'
import { raw } from '#tests/helpers/http'
import { until } from '#tests/helpers/until'

type World = Awaited<ReturnType<typeof dealerWorld>>
type Kind = 'get' | 'list' | 'inquiry' | 'listing' | 'edit'
type Outcome = {
  kind: Kind
  status: number
  sentAt: number
  doneAt: number
  contentType: string
  retryAfter: string | null
  requestId: string | null
  body: string
  /** What a 201 created: the inquiry's sid or the listing's ExternalId. */
  created?: string
}

const KINDS: Kind[] = ['get', 'list', 'inquiry', 'listing', 'edit']
const NOT_OWNED =
  'the suite does not own its PostgreSQL (DATABASE_URL is set): the pg_terminate_backend test covers it'
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function fire(world: World, kind: Kind): Promise<Outcome> {
  const headers = { 'Authorization': `Bearer ${world.token}`, 'Content-Type': 'application/json' }
  const sentAt = Date.now()
  let externalId: string | undefined
  let response: Response
  if (kind === 'get') {
    response = await raw(`/v3/publicaciones/${world.adminMail}/${world.listing.externalId}`, {
      headers,
    })
  } else if (kind === 'list') {
    // The inquiry list: its page and its count run side by side on two connections.
    response = await raw(`/v3/consultas/${world.adminMail}`, { headers })
  } else if (kind === 'inquiry') {
    response = await raw(`/v3/consultas/${world.adminMail}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(inquiryBody(world.listing.externalId)),
    })
  } else if (kind === 'edit') {
    // Every loop edits the same listing: edits of one row queue and hand their row on.
    response = await raw(`/v3/publicaciones/${world.adminMail}/${world.listing.externalId}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ Color: `Color ${sentAt % 1000}` }),
    })
  } else {
    externalId = uniqueExternalId('fault')
    response = await raw(`/v3/publicaciones/${world.adminMail}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(listingBody({ ExternalId: externalId })),
    })
  }
  const body = await response.text()
  const outcome: Outcome = {
    kind,
    status: response.status,
    sentAt,
    doneAt: Date.now(),
    contentType: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    requestId: response.headers.get('x-request-id'),
    body,
  }
  if (response.status === 201) {
    outcome.created = kind === 'inquiry' ? sidOf(response.headers.get('location')!) : externalId
  }
  return outcome
}

/**
 * Sends requests from `workers` loops until at least `minimum` were answered
 * and `done()` holds (at most `maximum`); a 503 is retried after a short pause.
 */
async function load(
  world: World,
  options: { minimum: number; maximum: number; done: () => boolean; workers?: number }
) {
  const outcomes: Outcome[] = []
  let sent = 0
  const loop = async () => {
    while (sent < options.maximum && (sent < options.minimum || !options.done())) {
      const kind = KINDS[sent++ % KINDS.length]
      const outcome = await fire(world, kind)
      outcomes.push(outcome)
      if (outcome.status === 503) await sleep(25)
    }
  }
  await Promise.all(Array.from({ length: options.workers ?? 8 }, loop))
  return outcomes
}

/** Every answer is 2xx or a 503 problem with Retry-After; every 201 is stored. Returns the figures. */
async function assertNothingLost(assert: any, outcomes: Outcome[]) {
  const unexpected = outcomes.filter(
    (o) => !(o.status >= 200 && o.status < 300) && o.status !== 503
  )
  assert.deepEqual(
    unexpected.map((o) => `${o.kind} ${o.status} ${o.body.slice(0, 400)}`),
    [],
    'only 2xx and 503 while the database restarts'
  )
  for (const o of outcomes.filter((outcome) => outcome.status === 503)) {
    assert.match(o.contentType, /^application\/problem\+json/)
    assert.equal(o.retryAfter, '5')
    assert.isString(o.requestId)
    const problem = JSON.parse(o.body)
    assert.equal(problem.Status, 503)
    assert.equal(problem.Extensions.TraceId, o.requestId)
  }
  const sids = outcomes.filter((o) => o.kind === 'inquiry' && o.created).map((o) => o.created!)
  const externalIds = outcomes
    .filter((o) => o.kind === 'listing' && o.created)
    .map((o) => o.created!)
  const storedInquiries = await db.from('inquiries').whereIn('sid', sids).count('* as n').first()
  const storedListings = await db
    .from('listings')
    .whereIn('external_id', externalIds)
    .count('* as n')
    .first()
  const lost =
    sids.length + externalIds.length - Number(storedInquiries.n) - Number(storedListings.n)
  if (lost > 0) {
    const foundSids = new Set(
      (await db.from('inquiries').whereIn('sid', sids).select('sid')).map((r) => r.sid)
    )
    const foundIds = new Set(
      (await db.from('listings').whereIn('external_id', externalIds).select('external_id')).map(
        (r) => r.external_id
      )
    )
    const missing = outcomes.filter(
      (o) => o.created && !(o.kind === 'inquiry' ? foundSids : foundIds).has(o.created)
    )
    assert.fail(
      `every 201 is stored; missing: ${missing.map((o) => `${o.kind} ${o.created} ${o.requestId}`).join(', ')}`
    )
  }
  const count = (predicate: (o: Outcome) => boolean) => outcomes.filter(predicate).length
  return {
    requests: outcomes.length,
    ok: count((o) => o.status < 300),
    created: sids.length + externalIds.length,
    unavailable: count((o) => o.status === 503),
    errors500: count((o) => o.status === 500),
    lost,
  }
}

/** The service is ready again: the database check and the job runner's own pool both answer. */
async function assertReadyAgain(assert: any) {
  const started = Date.now()
  const ready = await until(
    () =>
      raw('/health/ready').then(async (response) => ({
        status: response.status,
        body: (await response.json()) as any,
      })),
    (answer) => answer.status === 200,
    10_000
  )
  assert.equal(ready.status, 200, JSON.stringify(ready.body))
  assert.equal(ready.body.Chequeos.database.Estado, 'ok')
  assert.equal(ready.body.Chequeos.jobs.Estado, 'ok')
  return Date.now() - started
}

async function makeWorld() {
  await seedCatalog()
  return dealerWorld({ plan: { capacity: 5000, alta: 5000, media: 5000, baja: 5000 } })
}

test.group('Database faults: COMMIT on a dropped connection', () => {
  test('fails the transaction (it does not report success for a row never stored)', async ({
    assert,
  }) => {
    const admin = new pg.Client({ connectionString: env.get('DATABASE_URL') })
    await admin.connect()
    const name = `commit-guard-${Date.now()}`
    try {
      const attempt = db.transaction(async (trx) => {
        await trx.table('apps').insert({ name })
        const [{ pid }] = (await trx.rawQuery('select pg_backend_pid() as pid')).rows
        await admin.query('select pg_terminate_backend($1)', [pid])
        // The server closed the session; let the driver notice before COMMIT is sent.
        await until(
          async () =>
            (await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount,
          (n) => n === 0,
          5_000
        )
      })
      const error = await attempt.then(
        () => null,
        (failure: unknown) => failure
      )
      assert.isNotNull(error, 'the transaction must not report success')
      const { isDatabaseUnavailable } = await import('#core/database/errors')
      assert.isTrue(isDatabaseUnavailable(error), String(error))
      // Read on the admin's own connection: the pool may still hand out the killed one once
      // (a 503 for a request; here it would only hide the answer).
      assert.equal((await admin.query('select 1 from apps where name = $1', [name])).rowCount, 0)
    } finally {
      await admin.end()
    }
  })
})

test.group('Database faults', (group) => {
  group.setup(async () => {
    await seedCatalog()
  })

  test('PostgreSQL down: the API answers 503 + Retry-After problems, readiness 503; back up: 200 again', async ({
    assert,
  }) => {
    const server = ownedServer()!
    const w = await makeWorld()
    assert.equal((await fire(w, 'get')).status, 200)
    await server.stop()
    try {
      for (const kind of KINDS) {
        const outcome = await fire(w, kind)
        assert.equal(outcome.status, 503, `${kind}: ${outcome.body}`)
        assert.equal(outcome.retryAfter, '5')
        assert.match(outcome.contentType, /^application\/problem\+json/)
        assert.equal(JSON.parse(outcome.body).Status, 503)
      }
      // The buyers' pages answer a 503 page with Retry-After, not the 500 page.
      const page = await raw(`/autos/${w.listing.slug}`, {
        headers: { 'Accept': 'text/html', 'User-Agent': 'Mozilla/5.0' },
      })
      assert.equal(page.status, 503)
      assert.match(page.headers.get('content-type')!, /^text\/html/)
      assert.equal(page.headers.get('retry-after'), '5')
      const ready = await raw('/health/ready')
      assert.equal(ready.status, 503)
      assert.equal(((await ready.json()) as any).Chequeos.database.Estado, 'error')
    } finally {
      await server.start()
    }
    await assertReadyAgain(assert)
    assert.equal((await fire(w, 'get')).status, 200)
    assert.equal((await fire(w, 'inquiry')).status, 201)
  })
    .timeout(60_000)
    .skip(() => !ownedServer(), NOT_OWNED)

  test('PostgreSQL restarted under load: only 2xx and 503, nothing lost, recovery in seconds', async ({
    assert,
  }) => {
    const server = ownedServer()!
    const w = await makeWorld()
    // A second agency whose inquiries notify a webhook: after the restart its delivery shows the job workers reconnected.
    await startLeadWorkers()
    const receiver = await startReceiver()
    const notified = await makeWorld()
    const config = {
      PublicacionConsultadaWebHook: {
        Callback: receiver.url('/hook'),
        Secret: 'un-secreto-de-prueba-largo',
        Activo: true,
      },
    }
    const configured = await raw(`/v3/notificaciones/${notified.adminMail}`, {
      method: 'PUT',
      headers: { 'Authorization': `Bearer ${notified.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(config),
    })
    assert.equal(configured.status, 200)
    let restartedAt = 0
    let upAt = 0
    const restart = (async () => {
      await sleep(400) // load is running
      restartedAt = Date.now()
      await server.stop()
      await server.start()
      upAt = Date.now()
    })()
    const loadStarted = Date.now()
    const outcomes = await load(w, {
      minimum: 300,
      maximum: 1500,
      done: () => upAt > 0 && Date.now() > upAt + 1500,
    })
    const loadMs = Date.now() - loadStarted
    await restart
    const figures = await assertNothingLost(assert, outcomes)
    const firstAfter = outcomes
      .filter((o) => o.sentAt >= upAt && o.status < 300)
      .sort((a, b) => a.doneAt - b.doneAt)[0]
    assert.exists(firstAfter, 'a request sent after the restart succeeds')
    const recoveryMs = firstAfter.doneAt - upAt
    assert.isBelow(recoveryMs, 5_000)
    console.log(
      `    restart under load: ${figures.requests} requests (${figures.ok} 2xx, ${figures.created} created), ` +
        `${figures.unavailable} × 503, ${figures.errors500} × 500, ${figures.lost} lost; ` +
        `PostgreSQL down ${upAt - restartedAt} ms, first 2xx ${recoveryMs} ms after it was up; load ${loadMs} ms`
    )
    await assertReadyAgain(assert)
    try {
      const inquiry = await fire(notified, 'inquiry')
      assert.equal(inquiry.status, 201)
      const [delivered] = await receiver.waitFor(1, 15_000)
      assert.equal(delivered.headers['webhook-id'], `msg_${inquiry.created}`)
    } finally {
      await receiver.close()
    }
  })
    .timeout(60_000)
    .skip(() => !ownedServer(), NOT_OWNED)

  test('every connection of the service terminated under load (pg_terminate_backend): only 2xx and 503, nothing lost', async ({
    assert,
  }) => {
    const w = await makeWorld()
    const admin = new pg.Client({ connectionString: env.get('DATABASE_URL') })
    await admin.connect()
    let terminated = 0
    let finishedAt = 0
    const kill = (async () => {
      await sleep(300)
      for (let round = 0; round < 3; round++) {
        const { rowCount } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`
        )
        terminated += rowCount ?? 0
        await sleep(150)
      }
      finishedAt = Date.now()
    })()
    try {
      const outcomes = await load(w, {
        minimum: 200,
        maximum: 1000,
        done: () => finishedAt > 0 && Date.now() > finishedAt + 1000,
      })
      await kill
      const figures = await assertNothingLost(assert, outcomes)
      assert.isAbove(terminated, 0)
      const firstAfter = outcomes.filter((o) => o.sentAt >= finishedAt && o.status < 300)
      assert.isNotEmpty(firstAfter, 'the service answers after its connections were dropped')
      console.log(
        `    connections terminated under load: ${terminated} backends killed, ${figures.requests} requests ` +
          `(${figures.ok} 2xx, ${figures.created} created), ${figures.unavailable} × 503, ${figures.errors500} × 500, ${figures.lost} lost`
      )
    } finally {
      await admin.end()
    }
    await assertReadyAgain(assert)
  }).timeout(60_000)
})
