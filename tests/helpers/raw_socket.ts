/*
 * An HTTP/1.1 conversation on a bare TCP socket: what no HTTP client lets a
 * test do (a body shorter than its Content-Length, an upload that keeps going
 * after the answer), with the time each thing happened.
 */
import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { baseUrl } from '#tests/helpers/http'

export type RawResponse = {
  status: number
  headers: Record<string, string>
  text: string
  body: any
  /** Milliseconds from the connection's opening to the whole response. */
  at: number
}

/** One whole Content-Length-framed response at the start of `bytes`, or null while incomplete. */
function parseResponse(bytes: Buffer, at: number): RawResponse | null {
  const end = bytes.indexOf('\r\n\r\n')
  if (end === -1) return null
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'] ?? 0)
  if (bytes.length < end + 4 + length) return null
  const text = bytes.subarray(end + 4, end + 4 + length).toString('utf8')
  let body: any = null
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: Number(statusLine.split(' ')[1]), headers, text, body, at }
}

export type Conversation = {
  socket: Socket
  /** The first whole response. */
  response: Promise<RawResponse>
  /** Milliseconds from opening until the server closed the connection. */
  closed: Promise<number>
  /** The first socket error (ECONNRESET, EPIPE …) and whether the response was read before it. */
  error(): { error: NodeJS.ErrnoException; afterResponse: boolean } | undefined
  /** Writes, waiting for the socket to drain (false once the socket is gone). */
  write(bytes: string | Buffer): Promise<boolean>
}

/** Opens a connection to the test server. */
export function converse(): Promise<Conversation> {
  const url = new URL(baseUrl())
  return new Promise((resolve, reject) => {
    const opened = Date.now()
    const socket = connect(Number(url.port), url.hostname)
    let received = Buffer.alloc(0)
    let response: RawResponse | null = null
    let failure: { error: NodeJS.ErrnoException; afterResponse: boolean } | undefined
    let answer!: (response: RawResponse) => void
    let fail!: (error: Error) => void
    const responded = new Promise<RawResponse>((res, rej) => ((answer = res), (fail = rej)))
    // A conversation may end without a response; callers that await it see why.
    responded.catch(() => {})
    const closed = new Promise<number>((res) =>
      socket.once('close', () => res(Date.now() - opened))
    )
    socket.on('data', (chunk) => {
      if (response) return
      received = Buffer.concat([received, chunk])
      response = parseResponse(received, Date.now() - opened)
      if (response) answer(response)
    })
    socket.on('error', (error) => {
      failure ??= { error, afterResponse: response !== null }
      fail(error)
    })
    socket.once('close', () => fail(new Error(`closed without a response: ${received}`)))
    socket.once('connect', () =>
      resolve({
        socket,
        response: responded,
        closed,
        error: () => failure,
        write: (bytes) =>
          new Promise((done) => {
            if (socket.destroyed || !socket.writable) return done(false)
            if (socket.write(bytes)) return done(true)
            const settle = () => {
              socket.off('drain', settle).off('close', settle)
              done(!socket.destroyed)
            }
            socket.on('drain', settle).on('close', settle)
          }),
      })
    )
    socket.once('error', reject)
  })
}

/** The head of a POST (`Content-Length: n`, or chunked when `length` is null). */
export function postHead(
  path: string,
  length: number | null,
  headers: Record<string, string> = {}
) {
  const framing = length === null ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  return (
    `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${framing}\r\n` +
    `${extra.join('')}\r\n`
  )
}

export type NaiveOutcome = {
  /** The first whole response, when one arrived. */
  response: RawResponse | null
  /** The socket error the client met (EPIPE, ECONNRESET …), if any. */
  error?: string
  /** Body bytes written before the socket refused more. */
  sent: number
}

/**
 * The client that loses early answers: it writes the head and the whole body
 * without reading anything (its socket paused, as a client that reads only
 * after sending), then reads the response. A server that closes the
 * connection while the body is still coming resets it, and the reset throws
 * away the response the client had not read yet.
 */
export function sendThenRead(
  head: string,
  body: Buffer,
  options: { timeoutMs?: number; partBytes?: number; pauseMs?: number; url?: string } = {}
): Promise<NaiveOutcome> {
  const { timeoutMs = 20_000, partBytes = 64 * 1024, pauseMs = 0 } = options
  const url = new URL(options.url ?? baseUrl())
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname)
    socket.pause()
    let received = Buffer.alloc(0)
    let error: string | undefined
    let sent = 0
    let bodySent = false
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ response: parseResponse(received, 0), error, sent })
    }
    const timer = setTimeout(settle, timeoutMs)
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk])
      if (bodySent && parseResponse(received, 0)) settle()
    })
    socket.on('error', (failure: NodeJS.ErrnoException) => {
      error ??= failure.code ?? failure.message
    })
    socket.once('close', settle)
    socket.once('connect', async () => {
      socket.write(head)
      for (let offset = 0; offset < body.length && !socket.destroyed; offset += partBytes) {
        if (pauseMs > 0 && offset > 0) await sleep(pauseMs)
        const part = body.subarray(offset, offset + partBytes)
        if (!socket.write(part)) {
          await new Promise<void>((done) => {
            const go = () => {
              socket.off('drain', go).off('close', go)
              done()
            }
            socket.on('drain', go).on('close', go)
          })
        }
        if (!socket.destroyed) sent += part.length
      }
      bodySent = true
      socket.resume()
      if (parseResponse(received, 0)) settle()
    })
  })
}
