/*
 * The one outbound HTTP client of the service (webhooks, photo downloads).
 *
 * SSRF defence: every address a connection is about to use is checked — literal
 * IPs in the URL before connecting, host names inside the socket's DNS lookup —
 * so a name that resolves to a private address (or re-resolves to one between
 * a check and the connect: DNS rebinding) never gets a socket. Only public
 * addresses pass (isPublicAddress: IANA special-purpose ranges, IPv4 embedded
 * in IPv6 included) unless `settings.outboundAllowPrivate` (read per call,
 * so tests can flip it). Each redirect hop is checked the same way.
 *
 *   const response = await outbound.request('https://example.com/photo.jpg', {
 *     maxRedirects: 3, maxBytes: 15 * 1024 * 1024, timeoutMs: 20_000,
 *   })
 *
 * Never forwards cookies or credentials: no cookie jar, userinfo in URLs is
 * refused, and `Authorization`/`Cookie` are dropped on a cross-origin redirect.
 */
import http from 'node:http'
import https from 'node:https'
import { open, type FileHandle } from 'node:fs/promises'
import dns from 'node:dns'
import net from 'node:net'
import type { LookupFunction } from 'node:net'
import { isPublicAddress } from './public_address.js'
import { settings } from '#core/settings'

export type OutboundErrorCode =
  | 'bad_url'
  | 'bad_scheme'
  | 'private_address'
  | 'timeout'
  | 'too_large'
  | 'too_many_redirects'
  | 'network'

export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly url?: string
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export type OutboundRequest = {
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Whole exchange, body included (default 10 s). */
  timeoutMs?: number
  /** TCP connect of each hop (default 5 s, never above `timeoutMs`). */
  connectTimeoutMs?: number
  /** 0 (default): a 3xx is returned as is; N: up to N redirects are followed, the N+1th throws. */
  maxRedirects?: number
  /** Response bodies above this are cut and the call throws `too_large` (default 1 MiB). */
  maxBytes?: number
  /**
   * Write the body of the answer to this file (created or truncated, each hop afresh) rather
   * than into memory; `body` is then empty. The caller removes the file, whatever the outcome.
   */
  saveTo?: string
}

export type OutboundResponse = {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
  /** The URL that answered (after redirects). */
  url: string
  durationMs: number
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization'])
const USER_AGENT = 'dealership-listing-api/3 (+webhooks)'

/** Whether an address may be reached: public addresses only (see public_address.ts), unless private targets are allowed. */
export function isAllowedAddress(address: string): boolean {
  return settings.outboundAllowPrivate || isPublicAddress(address)
}

class PrivateAddressError extends Error {
  code = 'EPRIVATE'
}

/** dns.lookup that only hands out allowed addresses: runs at connect time, for every socket. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return (callback as any)(error)
    const allowed = (addresses as dns.LookupAddress[]).filter((entry) =>
      isAllowedAddress(entry.address)
    )
    if (allowed.length === 0) {
      return (callback as any)(
        new PrivateAddressError(`${hostname} resolves to a non-public address`)
      )
    }
    if ((options as dns.LookupOptions).all) return (callback as any)(null, allowed)
    return (callback as any)(null, allowed[0].address, allowed[0].family)
  })
}

function parseTarget(raw: string | URL): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new OutboundError('bad_url', 'The URL is not valid', String(raw))
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_scheme', `Scheme ${url.protocol} is not allowed`, url.href)
  }
  if (url.username || url.password) {
    throw new OutboundError('bad_url', 'Credentials in URLs are not allowed', url.origin)
  }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (net.isIP(host) && !isAllowedAddress(host)) {
    throw new OutboundError('private_address', `${host} is not a public address`, url.href)
  }
  return url
}

export class OutboundClient {
  async request(target: string | URL, options: OutboundRequest = {}): Promise<OutboundResponse> {
    const started = performance.now()
    const timeoutMs = options.timeoutMs ?? 10_000
    const maxRedirects = options.maxRedirects ?? 0
    const deadline = AbortSignal.timeout(timeoutMs)
    let url = parseTarget(target)
    let method = (options.method ?? 'GET').toUpperCase()
    let body = options.body
    let headers: Record<string, string> = {
      'user-agent': USER_AGENT,
      ...lowerKeys(options.headers ?? {}),
    }

    for (let hop = 0; ; hop++) {
      const response = await this.#once(url, method, headers, body, options, deadline, timeoutMs)
      const location = response.headers.location
      if (!REDIRECTS.has(response.status) || !location || maxRedirects === 0) {
        return { ...response, url: url.href, durationMs: Math.round(performance.now() - started) }
      }
      if (hop >= maxRedirects) {
        throw new OutboundError(
          'too_many_redirects',
          `More than ${maxRedirects} redirects`,
          url.href
        )
      }
      const next = parseTarget(new URL(location, url))
      if (next.origin !== url.origin) {
        headers = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name))
        )
      }
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET'
        body = undefined
        delete headers['content-type']
      }
      url = next
    }
  }

  #once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    options: OutboundRequest,
    deadline: AbortSignal,
    timeoutMs: number
  ): Promise<Omit<OutboundResponse, 'url' | 'durationMs'>> {
    const maxBytes = options.maxBytes ?? 1024 * 1024
    const connectTimeoutMs = Math.min(options.connectTimeoutMs ?? 5_000, timeoutMs)
    const transport = url.protocol === 'https:' ? https : http
    const payload =
      body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body)
    const sendHeaders = { ...headers }
    if (payload) sendHeaders['content-length'] = String(payload.length)

    return new Promise((resolve, reject) => {
      const request = transport.request(url, {
        method,
        headers: sendHeaders,
        // A fresh connection per request: a pooled socket could outlive a change of the private-address flag.
        agent: false,
        lookup: guardedLookup,
      })
      let settled = false
      let received: ReceivedBody | FileBody | undefined
      // An OutboundError, or the local file's own error (a full disk is no fault of the target).
      const finish = (
        error: Error | null,
        value?: Omit<OutboundResponse, 'url' | 'durationMs'>
      ) => {
        if (settled) return
        settled = true
        deadline.removeEventListener('abort', onDeadline)
        clearTimeout(connectTimer)
        if (error) {
          request.destroy()
          received?.discard()
          reject(error)
        } else resolve(value!)
      }
      const onDeadline = () =>
        finish(new OutboundError('timeout', `No complete answer within ${timeoutMs} ms`, url.href))
      const connectTimer = setTimeout(
        () =>
          finish(
            new OutboundError('timeout', `No connection within ${connectTimeoutMs} ms`, url.href)
          ),
        connectTimeoutMs
      )
      if (deadline.aborted) return onDeadline()
      deadline.addEventListener('abort', onDeadline)

      request.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer)
        else socket.once('connect', () => clearTimeout(connectTimer))
      })
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof PrivateAddressError || error.code === 'EPRIVATE') {
          return finish(new OutboundError('private_address', error.message, url.href))
        }
        finish(new OutboundError('network', `${error.code ?? 'ERROR'}: ${error.message}`, url.href))
      })
      request.on('response', (response) => {
        const declared = Number(response.headers['content-length'])
        if (Number.isFinite(declared) && declared > maxBytes) {
          finish(
            new OutboundError(
              'too_large',
              `Body of ${declared} bytes exceeds ${maxBytes}`,
              url.href
            )
          )
          return response.destroy()
        }
        const sink = options.saveTo
          ? new FileBody(options.saveTo)
          : new ReceivedBody(method === 'HEAD' ? Number.NaN : declared)
        received = sink
        response.on('data', (chunk: Buffer) => {
          if (sink.size + chunk.length > maxBytes) {
            finish(new OutboundError('too_large', `Body exceeds ${maxBytes} bytes`, url.href))
            return response.destroy()
          }
          const written = sink.add(chunk)
          // One chunk on its way to the disk at a time: the socket waits, memory does not fill.
          if (written) {
            response.pause()
            written.then(() => response.resume(), finish)
          }
        })
        response.on('error', (error) =>
          finish(new OutboundError('network', error.message, url.href))
        )
        // Closed before the declared length ('aborted' is deprecated): a network error, not a short body.
        response.on('close', () => {
          if (!response.complete)
            finish(new OutboundError('network', 'Response cut short', url.href))
        })
        response.on('end', () =>
          sink.bytes().then(
            (bytes) =>
              finish(null, {
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: bytes,
              }),
            finish
          )
        )
      })
      request.end(payload)
    })
  }
}

/**
 * A response body as it arrives. With a declared length (already checked against the
 * limit) it is copied into one buffer of that size: a 6 MB photo is held once, not as its
 * chunks and then their concatenation. Only the bytes received are ever handed out.
 */
class ReceivedBody {
  #whole: Buffer | null
  #chunks: Buffer[] = []
  size = 0

  constructor(declared: number) {
    this.#whole =
      Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null
  }

  add(chunk: Buffer): undefined {
    if (this.#whole && this.size + chunk.length <= this.#whole.length) {
      chunk.copy(this.#whole, this.size)
    } else {
      if (this.#whole) this.#chunks.push(this.#whole.subarray(0, this.size))
      this.#whole = null
      this.#chunks.push(chunk)
    }
    this.size += chunk.length
  }

  async bytes() {
    return this.#whole ? this.#whole.subarray(0, this.size) : Buffer.concat(this.#chunks)
  }

  discard() {}
}

const EMPTY = Buffer.alloc(0)

/**
 * A response body written to a file as it arrives (`saveTo`): a photo is never
 * held in memory. Each chunk is written before the next is read.
 */
class FileBody {
  #file: Promise<FileHandle>
  /** The last write: each chunk is written after the one before, closing after them all. */
  #written: Promise<unknown>
  #closed: Promise<void> | null = null
  size = 0

  constructor(path: string) {
    this.#file = open(path, 'w')
    // A failed open is reported by the first write or by `bytes`, not as an unhandled rejection.
    this.#file.catch(() => {})
    this.#written = this.#file
  }

  add(chunk: Buffer): Promise<void> {
    this.size += chunk.length
    const written = this.#written.then(() => this.#file).then((file) => file.write(chunk))
    this.#written = written
    return written.then(() => {})
  }

  /** Flushed and closed; the body handed back is empty (it is in the file). */
  async bytes() {
    await this.#close()
    return EMPTY
  }

  discard() {
    this.#close().catch(() => {})
  }

  #close() {
    // Closed once, after the writes, even when one failed (a full disk): the failure is this promise's.
    this.#closed ??= this.#written.then(
      () => this.#file.then((file) => file.close()),
      async (error) => {
        await this.#file.then(
          (file) => file.close(),
          () => {}
        )
        throw error
      }
    )
    return this.#closed
  }
}

function lowerKeys(headers: Record<string, string>) {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])
  )
}

/** The process's outbound client. */
export const outbound = new OutboundClient()
export default outbound
