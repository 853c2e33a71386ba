/*
 * A real HTTP receiver on 127.0.0.1 for webhook and download tests. It records
 * every request (raw body and headers) and answers from a programmable script.
 *
 *   const receiver = await startReceiver()
 *   receiver.script({ status: 500 }, { status: 500 }, { status: 200 })   // then the default
 *   receiver.route('/photo.jpg', { status: 200, headers: { 'content-type': 'image/jpeg' }, body: jpeg })
 *   ... receiver.url('/hook') ...
 *   const [first] = await receiver.waitFor(1)
 *   first.json(); first.headers['webhook-id']; first.rawBody
 *   await receiver.close()
 *
 * Answer precedence: a `route()` for the path, then the next scripted answer,
 * then the default (`setDefault`, initially 200 `{}`).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Group } from '@japa/runner/core'
import { settings } from '#core/settings'

export type ReceivedRequest = {
  method: string
  /** Path and query as received. */
  path: string
  headers: http.IncomingHttpHeaders
  rawBody: Buffer
  body: string
  receivedAt: Date
  json<T = any>(): T
}

export type Answer = {
  status?: number
  headers?: Record<string, string | number>
  body?: string | Buffer | object
  /** Sets `Retry-After` (seconds, or an HTTP-date string). */
  retryAfter?: number | string
  /** Waits this long before answering (for timeout tests). */
  delayMs?: number
  /** Sends this many bytes of body (for size tests), streamed in 64 KiB chunks. */
  bodyBytes?: number
  /** Destroys the socket without answering. */
  hangUp?: boolean
}

export type AnswerFn = (request: ReceivedRequest) => Answer | Promise<Answer>

export type Receiver = {
  port: number
  /** Absolute URL on the receiver, e.g. `receiver.url('/hook')`. */
  url(path?: string): string
  requests: ReceivedRequest[]
  /** Queues answers for the next requests, in order. */
  script(...answers: Answer[]): void
  setDefault(answer: Answer | AnswerFn): void
  route(path: string, answer: Answer | AnswerFn): void
  /** Resolves once `count` requests have been received (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>
  reset(): void
  close(): Promise<void>
}

export async function startReceiver(options: { port?: number } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = []
  let queue: Answer[] = []
  let fallback: Answer | AnswerFn = { status: 200, body: {} }
  const routes = new Map<string, Answer | AnswerFn>()
  let waiters: Array<() => void> = []

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const rawBody = Buffer.concat(chunks)
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        rawBody,
        body: rawBody.toString('utf8'),
        receivedAt: new Date(),
        json: () => JSON.parse(rawBody.toString('utf8')),
      }
      requests.push(received)
      const pathname = received.path.split('?')[0]
      const planned = routes.get(pathname) ?? queue.shift() ?? fallback
      const answer = typeof planned === 'function' ? await planned(received) : planned
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs))
      for (const wake of waiters) wake()
      if (answer.hangUp) return req.socket.destroy()
      await write(res, answer)
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const sockets = new Set<import('node:net').Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  return {
    port,
    requests,
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    script: (...answers) => queue.push(...answers),
    setDefault: (answer) => (fallback = answer),
    route: (path, answer) => routes.set(path, answer),
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return false
          clearTimeout(timer)
          waiters = waiters.filter((waiter) => waiter !== check)
          resolve(requests.slice(0, count))
          return true
        }
        const timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== check)
          reject(
            new Error(`receiver got ${requests.length} of ${count} requests within ${timeoutMs} ms`)
          )
        }, timeoutMs)
        if (!check()) waiters.push(check)
      })
    },
    reset() {
      requests.length = 0
      queue = []
      routes.clear()
      fallback = { status: 200, body: {} }
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

async function write(res: http.ServerResponse, answer: Answer) {
  const headers: Record<string, string | number> = { ...answer.headers }
  if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter
  res.statusCode = answer.status ?? 200
  if (answer.bodyBytes !== undefined) {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
    const chunk = Buffer.alloc(64 * 1024, 0x61)
    let left = answer.bodyBytes
    while (left > 0 && !res.destroyed) {
      const piece = chunk.subarray(0, Math.min(left, chunk.length))
      left -= piece.length
      if (!res.write(piece))
        await new Promise((resolve) => (res.once('drain', resolve), res.once('close', resolve)))
    }
    return res.end()
  }
  let body: string | Buffer = ''
  if (Buffer.isBuffer(answer.body) || typeof answer.body === 'string') body = answer.body
  else if (answer.body !== undefined) {
    body = JSON.stringify(answer.body)
    headers['content-type'] ??= 'application/json'
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
  res.end(body)
}

/**
 * Each test of `group` runs with OUTBOUND_ALLOW_PRIVATE set to `allowed` (loopback receivers need
 * it on, the SSRF tests off); the setting in force before is restored after the test.
 */
export function outboundPrivate(group: Group, allowed: boolean) {
  group.each.setup(() => {
    const initial = settings.outboundAllowPrivate
    settings.outboundAllowPrivate = allowed
    return () => {
      settings.outboundAllowPrivate = initial
    }
  })
}
