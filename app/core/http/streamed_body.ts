/*
 * Routes whose handler reads its body itself, as a stream (a stock sync's
 * inventory of up to 20 MiB, docs/design.md §15): the body parser and its
 * 1 MiB limit stay out of their way, and the JSON-only check lets their own
 * types through. The reader keeps the gate's promises (docs/design.md §13):
 * 413 past the limit on a connection that ends cleanly, 408 when the body
 * stops arriving, 415 for a Content-Encoding, never a half-read body.
 */
import type { IncomingMessage } from 'node:http'
import { settings } from '#core/settings'
import { Problem } from './problem.js'
import { drainRest } from './body_drain.js'

export type StreamedRoute = { method: string; path: RegExp; types: RegExp; accept: string }

const routes: StreamedRoute[] = []

/** Declares a route that reads its own body (its module's routes file). */
export function streamsBody(route: StreamedRoute) {
  routes.push(route)
}

/** The streamed route `method url` is, if any. */
export function streamedRoute(method: string, url: string): StreamedRoute | undefined {
  // Asked on every request: the path is cut from the URL only when the method has a streamed route.
  for (const route of routes) {
    if (route.method === method && route.path.test(url.split('?')[0])) return route
  }
}

/**
 * The body's chunks as they arrive, at most `limit` bytes in all. Reading
 * pauses between chunks, so a slow consumer holds one chunk, not the body.
 */
export async function* bodyChunks(request: IncomingMessage, limit: number): AsyncGenerator<Buffer> {
  const encoding = request.headers['content-encoding']
  if (encoding && encoding.trim().toLowerCase() !== 'identity') {
    drainRest(request)
    throw new Problem(415, {
      detail: 'Esta operación no admite Content-Encoding: envíe el cuerpo sin comprimir.',
      headers: { 'Accept-Encoding': 'identity' },
    })
  }
  const queue: Buffer[] = []
  let ended = request.readableEnded
  let failure: unknown
  let wake: (() => void) | null = null
  const onData = (chunk: Buffer) => {
    queue.push(chunk)
    request.pause()
    wake?.()
  }
  const onEnd = () => {
    ended = true
    wake?.()
  }
  const onError = (error: unknown) => {
    failure = error
    wake?.()
  }
  request.on('data', onData)
  request.on('end', onEnd)
  request.on('error', onError)
  let bytes = 0
  try {
    for (;;) {
      const chunk = queue.shift()
      if (chunk) {
        bytes += chunk.length
        if (bytes > limit) throw tooLarge(limit)
        yield chunk
        continue
      }
      if (failure) throw failure
      if (ended) return
      request.resume()
      await arrival((resolve) => (wake = resolve), settings.bodyIdleTimeoutMs)
      wake = null
    }
  } finally {
    request.off('data', onData)
    request.off('end', onEnd)
    request.off('error', onError)
    if (!ended) drainRest(request)
  }
}

function arrival(listen: (resolve: () => void) => void, idleMs: number) {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(stalled(idleMs)), idleMs)
    listen(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

function tooLarge(limit: number) {
  const mib = Math.round((limit / 1024 / 1024) * 10) / 10
  return new Problem(413, { detail: `El cuerpo supera el máximo de ${mib} MiB de esta operación.` })
}

function stalled(idleMs: number) {
  return new Problem(408, {
    detail: `El cuerpo de la solicitud dejó de llegar (${Math.round(idleMs / 100) / 10} s sin datos).`,
    headers: { Connection: 'close' },
  })
}
