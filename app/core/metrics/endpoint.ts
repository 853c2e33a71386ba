/*
 * `GET /metrics` (docs/design.md §14): on METRICS_PORT when set (a port the
 * operator keeps off the public network; no credentials), and on the main
 * port only with `Authorization: Bearer $METRICS_TOKEN` (404 when no token
 * is configured, so the endpoint does not exist there).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { HttpContext } from '@adonisjs/core/http'
import logger from '@adonisjs/core/services/logger'
import env from '#start/env'
import { Problem } from '#core/http/problem'
import { bearerToken } from '#core/http/bearer'
import { METRICS_CONTENT_TYPE, scrape } from './registry.js'

const logFailure = (error: unknown, set: string) =>
  logger.error({ err: error, set }, 'metrics source failed')

const digest = (value: string) => createHash('sha256').update(value).digest()

function tokenMatches(given: string | null, expected: string) {
  return given !== null && timingSafeEqual(digest(given), digest(expected))
}

/** The main port's handler. */
export async function metricsOnMainPort(ctx: HttpContext) {
  const expected = env.get('METRICS_TOKEN')
  if (!expected) throw Problem.notFound()
  if (!tokenMatches(bearerToken(ctx.request.header('authorization')), expected)) {
    throw new Problem(401, {
      detail: 'GET /metrics requiere Authorization: Bearer con el token de métricas.',
      headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
    })
  }
  ctx.response.header('Content-Type', METRICS_CONTENT_TYPE)
  return scrape(logFailure)
}

/** A bare HTTP server answering only `GET /metrics`. */
export function startMetricsServer(port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n')
      return
    }
    scrape(logFailure).then(
      (text) => {
        response.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      (error) => {
        logFailure(error, 'registry')
        response.writeHead(500).end()
      }
    )
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}

/** Starts the metrics port of a web process when METRICS_PORT is set; closed on shutdown. */
export async function serveMetricsPort(app: { terminating(handler: () => Promise<void>): void }) {
  const port = env.get('METRICS_PORT')
  if (!port) return null
  const server = await startMetricsServer(port, env.get('HOST') ?? '0.0.0.0')
  app.terminating(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return server
}
