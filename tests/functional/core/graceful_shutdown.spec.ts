/*
 * Deploys (docs/design.md §13): the real web process (`bin/server.ts`, on the
 * suite's database) gets SIGTERM while 50 requests it was just sent are in
 * flight — reads, writes, a slow upload and a slowly streamed stock sync — and
 * must answer every one, refuse
 * new connections, close the idle keep-alive ones and exit 0. `npm run …`
 * hands SIGTERM to node, and an old Node refuses to start with one line.
 */
import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import http from 'node:http'
import { connect } from 'node:net'
import app from '@adonisjs/core/services/app'
import { dealerWorld, inquiryBody } from '#tests/helpers/leads'
import { listingBody } from '#tests/helpers/listings'
import { until } from '#tests/helpers/until'
import { freePort } from '#tests/helpers/free_port'

type Answer = { status: number; bytes: number } | { error: string }

function exitOf(child: ChildProcess) {
  return new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode, at: Date.now() })
    } else child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }))
  })
}

/** The production web entry point as a child process, on the suite's database. */
async function startWebProcess() {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import=@poppinss/ts-exec', 'bin/server.ts'], {
    cwd: app.makePath(),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const exited = exitOf(child)
  const live = await until(
    () => request(port, 'GET', '/health/live', { agent: false }),
    (answer) => ('status' in answer && answer.status === 200) || child.exitCode !== null,
    20_000
  )
  if (!('status' in live) || live.status !== 200)
    throw new Error(`web process did not start: ${stderr}`)
  return { child, port, exited, stderr: () => stderr }
}

function request(
  port: number,
  method: string,
  path: string,
  options: {
    agent?: http.Agent | false
    token?: string
    body?: object
    slowBodyMs?: number
    onSent?: () => void
  } = {}
): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = options.body ? Buffer.from(JSON.stringify(options.body)) : null
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: options.agent,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': payload.length }
            : {}),
        },
      },
      (res) => {
        let bytes = 0
        res.on('data', (chunk) => (bytes += chunk.length))
        res.on('end', () => resolve({ status: res.statusCode!, bytes }))
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ error: error.code ?? error.message })
        )
      }
    )
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message })
    )
    const sent = options.onSent ?? (() => {})
    if (!payload) return req.end(sent)
    if (!options.slowBodyMs) return req.end(payload, sent)
    // Headers and half the body now, the rest later: received, not yet complete.
    req.write(payload.subarray(0, payload.length >> 1), sent)
    setTimeout(() => req.end(payload.subarray(payload.length >> 1)), options.slowBodyMs)
  })
}

function refused(port: number) {
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}

test.group('Deploys: SIGTERM', () => {
  test('50 requests just sent are all answered, new connections refused, exit 0', async ({
    assert,
  }) => {
    const { token, adminMail, listing } = await dealerWorld()
    const web = await startWebProcess()
    const agent = new http.Agent({ keepAlive: true })
    const base = `/v3/publicaciones/${encodeURIComponent(adminMail)}`
    const plan: { expect: number; send: (onSent: () => void) => Promise<Answer> }[] = []
    for (let i = 0; i < 49; i++) {
      const kind = i % 5
      if (kind === 0)
        plan.push({
          expect: 200,
          send: (onSent) =>
            request(web.port, 'GET', `${base}/${listing.externalId}`, { agent, token, onSent }),
        })
      if (kind === 1)
        plan.push({
          expect: 200,
          send: (onSent) => request(web.port, 'GET', base, { agent, token, onSent }),
        })
      if (kind === 2)
        plan.push({
          expect: 201,
          send: (onSent) =>
            request(web.port, 'POST', base, { agent, token, body: listingBody(), onSent }),
        })
      if (kind === 3) {
        const body = inquiryBody(listing.externalId)
        plan.push({
          expect: 201,
          send: (onSent) =>
            request(web.port, 'POST', `/v3/consultas/${encodeURIComponent(adminMail)}`, {
              agent,
              token,
              body,
              onSent,
            }),
        })
      }
      if (kind === 4)
        // Edits of one listing, queued behind each other when SIGTERM arrives.
        plan.push({
          expect: 200,
          send: (onSent) =>
            request(web.port, 'PUT', `${base}/${listing.externalId}`, {
              agent,
              token,
              body: { Color: `Color ${i}` },
              onSent,
            }),
        })
    }
    // A slow upload: its request is received before SIGTERM, its body after.
    plan.push({
      expect: 201,
      send: (onSent) =>
        request(web.port, 'POST', base, {
          agent,
          token,
          body: listingBody(),
          slowBodyMs: 2_000,
          onSent,
        }),
    })

    // A stock sync streamed slowly: its handler reads the body itself, after SIGTERM, whole.
    const syncRows = [listingBody(), listingBody(), listingBody()]
    plan.push({
      expect: 202,
      send: (onSent) =>
        request(web.port, 'POST', `${base}/sincronizaciones`, {
          agent,
          token,
          body: { Modo: 'Parcial', Publicaciones: syncRows },
          slowBodyMs: 2_000,
          onSent,
        }),
    })

    // SIGTERM 25 ms after the last request is written to its socket (on a busy
    // machine this test process may need longer than 25 ms to send all 50).
    let written = 0
    let allWritten: () => void
    const sending = new Promise<void>((resolve) => (allWritten = resolve))
    const onSent = () => ++written === plan.length && allWritten()
    const answers = Promise.all(plan.map((entry) => entry.send(onSent)))
    await sending
    await new Promise((resolve) => setTimeout(resolve, 25))
    web.child.kill('SIGTERM')

    // New connections are refused while the slow upload is still being answered.
    const probe = await until(
      async () => ({ result: await refused(web.port), running: web.child.exitCode === null }),
      ({ result }) => result !== 'connected',
      10_000
    )
    assert.deepEqual(probe, { result: 'ECONNREFUSED', running: true })

    const results = await answers
    const unexpected = results
      .map((answer, i) => ({ i, answer, expect: plan[i].expect }))
      .filter(({ answer, expect }) => !('status' in answer) || answer.status !== expect)
    if (unexpected.length > 0) {
      const exit = await Promise.race([
        web.exited,
        new Promise((resolve) => setTimeout(() => resolve('running'), 5_000)),
      ])
      console.error('web process after SIGTERM:', exit, web.stderr().slice(-4000))
    }
    assert.deepEqual(unexpected, [], 'every request sent before SIGTERM gets its complete answer')
    assert.isTrue(results.every((answer) => 'bytes' in answer && answer.bytes > 0))
    // The sync is stored with every row (nothing half-written by the stop).
    const { rows: synced } = await db.rawQuery(
      `select s.total, (select count(*)::int from listing_sync_rows r where r.sync_id = s.id) as rows
       from listing_syncs s
       where s.id in (select sync_id from listing_sync_rows where external_id = ?)`,
      [syncRows[0].ExternalId]
    )
    assert.deepEqual(synced, [{ total: 3, rows: 3 }])

    // Idle keep-alive connections are closed, not left to their 5 s timeout.
    const idle = await until(
      async () => Object.values(agent.freeSockets).flat().length,
      (count) => count === 0,
      2_000
    )
    assert.equal(idle, 0, 'the server closed the idle keep-alive connections')

    const exit = await Promise.race([
      web.exited,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
    ])
    agent.destroy()
    if (!exit) web.child.kill('SIGKILL')
    assert.isNotNull(exit, 'exits within 15 s')
    assert.deepInclude(exit!, { code: 0, signal: null }, web.stderr())
  }).timeout(60_000)

  test('npm run hands SIGTERM to node: no node process is left', async ({ assert }) => {
    // `npm start` runs the same way (`exec node ace …`); a worker boots without
    // loading the bundled catalogue into the suite's database.
    const npm = spawn('npm', ['run', '--silent', 'worker', '--', '--queues', 'apps.webhook'], {
      cwd: app.makePath(),
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    npm.stdout!.on('data', (chunk) => (output += chunk))
    npm.stderr!.on('data', (chunk) => (output += chunk))
    const npmExited = exitOf(npm)
    await until(
      async () => output,
      (text) => text.includes('Working') || npm.exitCode !== null,
      20_000
    )
    assert.include(output, 'Working 1 queue(s)')
    const descendants = (pid: number): number[] => {
      const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number)
      return children.flatMap((child) => [child, ...descendants(child)])
    }
    const started = descendants(npm.pid!)
    const nodes = started.filter((pid) =>
      /^\S*node ace jobs:work/.test(
        spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout
      )
    )
    try {
      assert.lengthOf(nodes, 1, 'the worker runs under npm')
      npm.kill('SIGTERM')
      const exit = await Promise.race([
        npmExited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
      ])
      const alive = await until(
        async () => nodes.filter((pid) => existsSync(`/proc/${pid}`)),
        (left) => left.length === 0,
        5_000
      )
      assert.deepEqual(alive, [], 'no node process left behind')
      assert.isNotNull(exit, 'npm exits')
    } finally {
      for (const pid of [npm.pid!, ...started]) {
        if (existsSync(`/proc/${pid}`)) process.kill(pid, 'SIGKILL')
      }
    }
  }).timeout(60_000)

  test('a Node older than 24 refuses to start, in one line', async ({ assert }) => {
    const old = '/usr/bin/node'
    const version = existsSync(old)
      ? spawnSync(old, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
      : ''
    if (!version || Number(version.split('.')[0]) >= 24) {
      console.log(`  (skipped: no Node older than 24 at ${old})`)
      return
    }
    const result = spawnSync(old, ['ace.js', 'migration:run', '--force'], {
      cwd: app.makePath(),
      env: { ...process.env, NODE_ENV: 'production' },
      encoding: 'utf8',
    })
    assert.notEqual(result.status, 0)
    const lines = (result.stdout + result.stderr).split('\n').filter((line) => line.trim())
    assert.lengthOf(lines, 1, result.stderr)
    assert.include(lines[0], `Node.js 24 or newer is required, this is ${version}`)
  })
})
