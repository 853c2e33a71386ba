import { test } from '@japa/runner'
import https from 'node:https'
import { createServer, type Socket } from 'node:net'
import { randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { isAllowedAddress, outbound, OutboundError } from '#core/outbound/http_client'
import { settings } from '#core/settings'
import { outboundPrivate, startReceiver, type Receiver } from '#tests/helpers/receiver'

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof OutboundError) return error
    throw error
  }
  throw new Error('expected the request to fail')
}

/** A server that declares 1 000 bytes, sends 10 and hangs up, for the length of `use`. */
async function withCutShortServer(use: (url: string) => Promise<void>) {
  const sockets: Socket[] = []
  const liar = createServer((socket) => {
    sockets.push(socket)
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789')
  })
  await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve))
  try {
    await use(`http://127.0.0.1:${(liar.address() as AddressInfo).port}/`)
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => liar.close(resolve))
  }
}

test.group('outbound http client: SSRF guard', (group) => {
  let receiver: Receiver
  group.setup(async () => {
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => receiver.reset())
  outboundPrivate(group, false)

  test('refuses the literal address {$self} while private targets are not allowed')
    .with([
      'http://127.0.0.1:9/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://[::1]/',
      'http://[::]/',
      'http://[fc00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:10.0.0.1]/',
      // IPv4 embedded in IPv6 forms other than mapped (issue 11: ::7f00:1 was connected to).
      'http://[::7f00:1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::1]/',
      'http://[2001:0:808:808::80ff:fffe]/',
      'http://198.18.0.1/',
    ])
    .run(async ({ assert }, url) => {
      const error = await failure(outbound.request(url, { timeoutMs: 2000 }))
      assert.equal(error.code, 'private_address')
    })

  test('draws the line at the edges of the private ranges', async ({ assert }) => {
    for (const address of [
      '8.8.8.8',
      '172.15.255.255',
      '172.32.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '2606:4700::1111',
    ]) {
      assert.isTrue(isAllowedAddress(address), address)
    }
    for (const address of [
      '172.16.0.0',
      '172.31.255.255',
      '100.64.0.0',
      '100.127.255.255',
      '::ffff:192.168.0.1',
    ]) {
      assert.isFalse(isAllowedAddress(address), address)
    }
  })

  test('refuses a host name that resolves to loopback, at connect time', async ({ assert }) => {
    const error = await failure(outbound.request(`http://localhost:${receiver.port}/`))
    assert.equal(error.code, 'private_address')
    assert.lengthOf(receiver.requests, 0)
  })

  test('reaches the same loopback receiver once private targets are allowed', async ({
    assert,
  }) => {
    settings.outboundAllowPrivate = true
    const viaName = await outbound.request(`http://localhost:${receiver.port}/a`)
    const viaIp = await outbound.request(receiver.url('/b'))
    assert.equal(viaName.status, 200)
    assert.equal(viaIp.status, 200)
    assert.deepEqual(
      receiver.requests.map((request) => request.path),
      ['/a', '/b']
    )
  })

  test('re-checks every redirect hop: a redirect to a private address is refused', async ({
    assert,
  }) => {
    const inner = await startReceiver()
    try {
      settings.outboundAllowPrivate = true
      // The first hop is answered, then private targets are switched off before the redirect is followed.
      receiver.route('/start', () => {
        settings.outboundAllowPrivate = false
        return { status: 302, headers: { location: inner.url('/metadata') } }
      })
      const error = await failure(outbound.request(receiver.url('/start'), { maxRedirects: 3 }))
      assert.equal(error.code, 'private_address')
      assert.lengthOf(receiver.requests, 1)
      assert.lengthOf(inner.requests, 0)
    } finally {
      await inner.close()
    }
  })

  test('refuses URLs that are not absolute http(s) or that carry credentials', async ({
    assert,
  }) => {
    assert.equal((await failure(outbound.request('not a url'))).code, 'bad_url')
    assert.equal((await failure(outbound.request('ftp://example.com/x'))).code, 'bad_scheme')
    assert.equal((await failure(outbound.request('file:///etc/passwd'))).code, 'bad_scheme')
    assert.equal((await failure(outbound.request('http://user:pass@example.com/'))).code, 'bad_url')
  })
})

test.group('outbound http client: transport', (group) => {
  let receiver: Receiver
  group.setup(async () => {
    receiver = await startReceiver()
    return () => receiver.close()
  })
  group.each.setup(() => receiver.reset())
  outboundPrivate(group, true)

  test('sends method, headers and body, and returns status, headers, body and url', async ({
    assert,
  }) => {
    receiver.script({ status: 201, headers: { 'x-answer': 'yes' }, body: { ok: true } })
    const response = await outbound.request(receiver.url('/hook?x=1'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Custom': 'abc' },
      body: '{"a":1}',
    })
    assert.equal(response.status, 201)
    assert.equal(response.headers['x-answer'], 'yes')
    assert.deepEqual(JSON.parse(response.body.toString()), { ok: true })
    assert.equal(response.url, receiver.url('/hook?x=1'))
    assert.isAtLeast(response.durationMs, 0)
    const [received] = receiver.requests
    assert.equal(received.method, 'POST')
    assert.equal(received.path, '/hook?x=1')
    assert.equal(received.headers['x-custom'], 'abc')
    assert.equal(received.headers['content-length'], '7')
    assert.isUndefined(received.headers.cookie)
    assert.equal(received.body, '{"a":1}')
  })

  test('returns a redirect as is when redirects are off (the default)', async ({ assert }) => {
    receiver.route('/moved', { status: 301, headers: { location: '/elsewhere' } })
    const response = await outbound.request(receiver.url('/moved'))
    assert.equal(response.status, 301)
    assert.lengthOf(receiver.requests, 1)
  })

  test('follows up to maxRedirects redirects and refuses one more', async ({ assert }) => {
    receiver.route('/r3', { status: 302, headers: { location: '/r2' } })
    receiver.route('/r2', { status: 307, headers: { location: '/r1' } })
    receiver.route('/r1', { status: 308, headers: { location: '/final' } })
    receiver.route('/final', { status: 200, body: 'done' })

    const followed = await outbound.request(receiver.url('/r3'), { maxRedirects: 3 })
    assert.equal(followed.status, 200)
    assert.equal(followed.body.toString(), 'done')
    assert.equal(followed.url, receiver.url('/final'))

    receiver.requests.length = 0
    const error = await failure(outbound.request(receiver.url('/r3'), { maxRedirects: 2 }))
    assert.equal(error.code, 'too_many_redirects')
    assert.deepEqual(
      receiver.requests.map((request) => request.path),
      ['/r3', '/r2', '/r1']
    )
  })

  test('drops credentials on a cross-origin redirect and keeps them on the same origin', async ({
    assert,
  }) => {
    const other = await startReceiver()
    try {
      receiver.route('/same', { status: 302, headers: { location: '/landing' } })
      receiver.route('/cross', { status: 302, headers: { location: other.url('/landing') } })
      await outbound.request(receiver.url('/same'), {
        maxRedirects: 1,
        headers: { Authorization: 'Bearer x' },
      })
      await outbound.request(receiver.url('/cross'), {
        maxRedirects: 1,
        headers: { Authorization: 'Bearer x' },
      })
      const landing = receiver.requests.find((request) => request.path === '/landing')!
      assert.equal(landing.headers.authorization, 'Bearer x')
      assert.isUndefined(other.requests[0].headers.authorization)
    } finally {
      await other.close()
    }
  })

  test('cuts a streamed body above maxBytes and accepts one of exactly maxBytes', async ({
    assert,
  }) => {
    receiver.route('/exact', { bodyBytes: 100_000 })
    receiver.route('/over', { bodyBytes: 100_001 })
    const exact = await outbound.request(receiver.url('/exact'), { maxBytes: 100_000 })
    assert.equal(exact.body.length, 100_000)
    const error = await failure(outbound.request(receiver.url('/over'), { maxBytes: 100_000 }))
    assert.equal(error.code, 'too_large')
  })

  test('refuses a declared Content-Length above maxBytes before reading it', async ({ assert }) => {
    receiver.route('/declared', { body: Buffer.alloc(2048), headers: { 'content-length': 2048 } })
    const error = await failure(outbound.request(receiver.url('/declared'), { maxBytes: 2047 }))
    assert.equal(error.code, 'too_large')
    const fits = await outbound.request(receiver.url('/declared'), { maxBytes: 2048 })
    assert.equal(fits.body.length, 2048)
  })

  test('a body of declared length arrives byte for byte; one cut short is a network error, never padded', async ({
    assert,
  }) => {
    const photo = randomBytes(700_000)
    receiver.route('/photo', { body: photo, headers: { 'content-length': photo.length } })
    const fetched = await outbound.request(receiver.url('/photo'), { maxBytes: 1_000_000 })
    assert.isTrue(fetched.body.equals(photo))

    await withCutShortServer(async (url) => {
      const started = Date.now()
      const error = await failure(outbound.request(url))
      assert.equal(error.code, 'network')
      assert.isBelow(Date.now() - started, 1000, 'the cut was noticed at once, not at the deadline')
    })
  })

  test('saveTo writes the body to a file byte for byte, the final hop only, and hands back no bytes', async ({
    assert,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'outbound-save-'))
    try {
      const photo = randomBytes(700_000)
      receiver.route('/photo', { body: photo, headers: { 'content-length': photo.length } })
      receiver.route('/streamed', { bodyBytes: 300_000 })
      receiver.route('/moved', { status: 302, headers: { location: '/photo' }, body: 'moved!' })
      const file = join(dir, 'body')

      const saved = await outbound.request(receiver.url('/moved'), {
        maxRedirects: 1,
        maxBytes: 1_000_000,
        saveTo: file,
      })
      assert.equal(saved.status, 200)
      assert.equal(saved.body.length, 0)
      assert.isTrue(readFileSync(file).equals(photo), 'the redirect body was overwritten')

      // A shorter body truncates what the file held; one without a declared length streams in.
      await outbound.request(receiver.url('/streamed'), { maxBytes: 300_000, saveTo: file })
      assert.equal(readFileSync(file).length, 300_000)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('saveTo keeps the limits: maxBytes + 1 is too_large, a cut body is a network error, a missing folder or a full disk is the file error (and the file is closed)', async ({
    assert,
  }) => {
    const dir = mkdtempSync(join(tmpdir(), 'outbound-save-'))
    try {
      receiver.route('/over', { bodyBytes: 100_001 })
      receiver.route('/exact', { bodyBytes: 100_000 })
      const file = join(dir, 'body')
      const exact = await outbound.request(receiver.url('/exact'), {
        maxBytes: 100_000,
        saveTo: file,
      })
      assert.equal(exact.status, 200)
      assert.equal(readFileSync(file).length, 100_000)
      const over = await failure(
        outbound.request(receiver.url('/over'), { maxBytes: 100_000, saveTo: file })
      )
      assert.equal(over.code, 'too_large')

      await withCutShortServer(async (url) => {
        const cut = await failure(outbound.request(url, { saveTo: file }))
        assert.equal(cut.code, 'network')
      })

      const missing = await outbound
        .request(receiver.url('/exact'), { maxBytes: 100_000, saveTo: join(dir, 'no/such/dir') })
        .then(
          () => null,
          (error) => error
        )
      assert.notInstanceOf(missing, OutboundError)
      assert.equal(missing?.code, 'ENOENT')

      // A full disk (/dev/full refuses every write): the file's error, and the file is closed all the same.
      const fullOpen = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === '/dev/full'
          } catch {
            return false
          }
        }).length
      const full = await outbound
        .request(receiver.url('/exact'), { maxBytes: 100_000, saveTo: '/dev/full' })
        .then(
          () => null,
          (error) => error
        )
      assert.equal(full?.code, 'ENOSPC')
      await new Promise((resolve) => setTimeout(resolve, 50))
      assert.equal(fullOpen(), 0, '/dev/full is still open')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('gives up with a timeout when the answer does not come in time', async ({ assert }) => {
    receiver.route('/slow', { delayMs: 1500 })
    const error = await failure(outbound.request(receiver.url('/slow'), { timeoutMs: 200 }))
    assert.equal(error.code, 'timeout')
  })

  test('reports a refused connection as a network error', async ({ assert }) => {
    const closed = await startReceiver()
    const url = closed.url('/')
    await closed.close()
    const error = await failure(outbound.request(url))
    assert.equal(error.code, 'network')
  })
})

test.group('outbound http client: https', (group) => {
  let server: https.Server
  let port: number
  const initial = settings.outboundAllowPrivate
  group.setup(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbound-tls-'))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' }
    )
    server = https.createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.end('tls')
    )
    rmSync(dir, { recursive: true, force: true })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })
  group.each.teardown(() => {
    settings.outboundAllowPrivate = initial
  })

  test('verifies certificates: a self-signed one is refused', async ({ assert }) => {
    settings.outboundAllowPrivate = true
    const error = await failure(outbound.request(`https://127.0.0.1:${port}/`))
    assert.equal(error.code, 'network')
    assert.match(error.message, /SELF_SIGNED|self.signed/i)
  })

  test('checks the address of https targets too', async ({ assert }) => {
    settings.outboundAllowPrivate = false
    assert.equal(
      (await failure(outbound.request(`https://127.0.0.1:${port}/`))).code,
      'private_address'
    )
    assert.equal(
      (await failure(outbound.request(`https://localhost:${port}/`))).code,
      'private_address'
    )
  })
})
