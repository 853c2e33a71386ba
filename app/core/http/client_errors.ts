/*
 * Requests refused before Adonis builds a context: a URL whose
 * percent-encoding is not UTF-8 (the server's `onBadUrl`) and what Node's
 * HTTP parser itself refuses (`clientError`: malformed request line or
 * headers, headers too large, header timeout). Both answer problem documents
 * with a request id, like every other error, and are logged with it.
 */
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { PROBLEM_CONTENT_TYPE, type ProblemErrors } from './problem.js'
import { checkPercentEncoding, notUtf8 } from './input_gate.js'
import { drainEarlyAnswers, lingeringClose } from './body_drain.js'

function problemBody(
  status: number,
  detail: string,
  instance: string,
  requestId: string,
  errors?: ProblemErrors
) {
  return JSON.stringify({
    Type: `https://httpstatuses.io/${status}`,
    Title: status === 400 ? 'La solicitud no es válida' : (STATUS_CODES[status] ?? 'Error'),
    Status: status,
    Detail: detail,
    Instance: instance,
    Extensions: { TraceId: requestId },
    ...(errors ? { Errors: errors } : {}),
  })
}

/** Logged with its request id; the logger is resolved lazily (config files import this module). */
function logRefusal(requestId: string, fields: Record<string, unknown>, message: string) {
  import('@adonisjs/core/services/logger')
    .then(({ default: logger }) => logger.child({ request_id: requestId }).info(fields, message))
    .catch(() => {})
}

const BAD_URL_DETAIL = 'La ruta tiene una codificación porcentual inválida (no es UTF-8).'

/** Stand-ins for a bad segment when matching routes: text, then a number (numeric matchers). */
const PLACEHOLDERS = ['x', '0']
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

function decodes(text: string) {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

/**
 * The `Errors` of a URL whose percent-encoding is not UTF-8, keyed like the
 * input gate keys NUL bytes: `_path.<param>` for a path parameter (found by
 * matching the route with the bad segments replaced), `_path` for a literal
 * segment, the name of a query value.
 */
export async function badUrlErrors(method: string, url: string): Promise<ProblemErrors> {
  const errors: ProblemErrors = {}
  const [path, ...rest] = url.split('?')
  const segments = path.split('/')
  const bad = segments.map((segment) => !decodes(segment))
  if (bad.some(Boolean)) {
    const names = await paramNames(method, segments, bad)
    bad.forEach((isBad, index) => {
      if (!isBad) return
      const name = names?.[index]
      const key = name ? `_path.${name}` : '_path'
      ;(errors[key] ??= []).push(notUtf8(name ?? 'ruta'))
    })
  }
  checkPercentEncoding(rest.join('?'), errors)
  return errors
}

/** Route parameter names by segment index, from the first route the cleaned path matches. */
async function paramNames(method: string, segments: string[], bad: boolean[]) {
  const { default: router } = await import('@adonisjs/core/services/router')
  const methods = [method === 'HEAD' ? 'GET' : method, ...METHODS.filter((m) => m !== method)]
  for (const placeholder of PLACEHOLDERS) {
    const clean = segments.map((segment, index) => (bad[index] ? placeholder : segment)).join('/')
    for (const candidate of methods) {
      const match = router.match(clean, candidate, false)
      if (match) {
        return match.route.pattern
          .split('/')
          .map((token) => (token.startsWith(':') ? token.slice(1).replace(/\?$/, '') : undefined))
      }
    }
  }
  return null
}

/** `http.onBadUrl` of config/app.ts. */
export function onBadUrl(req: IncomingMessage, res: ServerResponse) {
  const header = req.headers['x-request-id']
  const requestId = typeof header === 'string' && header ? header : randomUUID()
  const url = req.url ?? '/'
  const path = url.split('?')[0]
  logRefusal(requestId, { method: req.method, path, status: 400 }, 'malformed URL refused')
  const answer = (errors: ProblemErrors) => {
    const body = problemBody(400, BAD_URL_DETAIL, path, requestId, errors)
    res.writeHead(400, {
      'Content-Type': PROBLEM_CONTENT_TYPE,
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      'Vary': 'Accept',
    })
    res.end(body)
  }
  badUrlErrors(req.method ?? 'GET', url).then(answer, () => answer({ _path: [notUtf8('ruta')] }))
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Los encabezados de la solicitud son demasiado grandes.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'La solicitud no llegó completa a tiempo.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'La solicitud no llegó completa a tiempo.'],
}

const answered = new WeakSet<Socket>()

/** Answers what Node's HTTP parser refuses with a problem document instead of a bare status line. */
export function attachClientErrorHandler(server: Server) {
  if (server.listenerCount('clientError') > 0) return
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Its answer is out: what still arrives fails to parse again and is discarded until the linger ends.
    if (answered.has(socket)) return
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    const [status, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [
      400,
      'La solicitud HTTP está mal formada.',
    ]
    const requestId = randomUUID()
    logRefusal(requestId, { status, code: error.code }, 'malformed HTTP request refused')
    const body = problemBody(status, detail, '/', requestId)
    answered.add(socket)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Vary: Accept\r\n' +
        'Connection: close\r\n\r\n' +
        body
    )
    // The client may still be sending (headers too large, then a body): a close now would reset it.
    lingeringClose(socket)
  })
}

/**
 * Every entry point (Ignitor's web server, `npm start`, the test server) hands
 * its node server to `setNodeServer`: attaching there covers them all. Besides
 * the client errors, every early answer's body is drained (body_drain.ts).
 */
export function guardNodeServerOf(server: { setNodeServer(node: any): void }) {
  const original = server.setNodeServer.bind(server)
  server.setNodeServer = (node: any) => {
    attachClientErrorHandler(node)
    drainEarlyAnswers(node)
    original(node)
  }
}
