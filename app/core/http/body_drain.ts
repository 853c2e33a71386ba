/*
 * Every early answer reaches its sender (docs/design.md §24). A request
 * answered before its body was read (a 413, 401, 404, 405, 415, a malformed
 * URL, a path the input gate refuses) leaves the rest of that body on the wire
 * while the client, still sending, reads nothing yet. Closing such a
 * connection while bytes keep arriving makes the kernel answer them with a
 * reset, and a reset makes the client's kernel throw away the answer it had
 * not read: the client sees EPIPE or ECONNRESET instead of the problem
 * document. So the rest of the body is read and discarded, within the bounds
 * of `settings.bodyDrain`, and the connection ends only then:
 * - a keep-alive connection stays open for the next request;
 * - one that closes after this answer (the client sent `Connection: close`,
 *   or the service is shutting down) is half-closed once the body is in;
 * - past the bounds (more bytes than `bytes`, nothing for `idleMs`, longer
 *   than `ms`) it is half-closed at once, read for `lingerMs` more, and only
 *   then cut: a client sending far more is not waited for.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { settings } from '#core/settings'

type Drain = { socket: Socket; closeAfter: boolean; stop: () => void }

const drains = new WeakMap<IncomingMessage, Drain>()
const responses = new WeakMap<IncomingMessage, ServerResponse>()
const drainingSockets = new WeakSet<Socket>()

/** Whether `socket` is reading and discarding the rest of an answered request's body. */
export function isDraining(socket: Socket) {
  return drainingSockets.has(socket)
}

/**
 * Reads the rest of `request`'s body and discards it, within the bounds.
 * Idempotent; called when the service refuses a body it stopped reading (the
 * body parser's 413) and for every response that finishes before its body.
 */
export function drainRest(request: IncomingMessage): Drain | undefined {
  if (request.complete || request.socket.destroyed) return
  const known = drains.get(request)
  if (known) return known
  const socket = request.socket
  const { bytes, idleMs, ms } = settings.bodyDrain
  const start = socket.bytesRead
  const stop = () => {
    clearTimeout(idle)
    clearTimeout(deadline)
    drainingSockets.delete(socket)
  }
  const giveUp = () => {
    stop()
    request.off('data', onData)
    // Still discarded (nothing else reads it) until the cut.
    request.on('data', () => {})
    afterAnswer(request, () => lingeringClose(socket))
  }
  const onData = () => {
    idle.refresh()
    if (socket.bytesRead - start > bytes) giveUp()
  }
  const idle = setTimeout(giveUp, idleMs).unref()
  const deadline = setTimeout(giveUp, ms).unref()
  const drain: Drain = { socket, closeAfter: false, stop }
  drains.set(request, drain)
  drainingSockets.add(socket)
  // Whatever was reading it (the body parser, a pipe into a decoder) is done with it.
  request.unpipe()
  request.removeAllListeners('data')
  request.on('data', onData)
  request.once('end', () => {
    stop()
    if (drain.closeAfter) socket.end()
  })
  request.once('close', stop)
  request.resume()
  return drain
}

/** Runs `then` once the request's answer has been handed to the socket (at once when unknown or done). */
function afterAnswer(request: IncomingMessage, then: () => void) {
  const response = responses.get(request)
  if (!response || response.writableFinished) then()
  else response.once('finish', then)
}

/**
 * Half-closes (the answer, already written, goes out before the FIN), keeps
 * reading for the linger time so a client still sending is not reset at
 * once, then cuts.
 */
export function lingeringClose(socket: Socket) {
  if (socket.destroyed) return
  socket.end()
  socket.resume()
  setTimeout(() => socket.destroy(), settings.bodyDrain.lingerMs).unref()
}

function hasBodyOnWire(request: IncomingMessage) {
  const length = request.headers['content-length']
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  )
}

/**
 * Hooks a node server: a response that finishes before its request's body
 * starts the drain. Node itself would discard the rest on a keep-alive
 * connection without bound, and on one that closes after this answer it
 * ends and destroys the socket as soon as the answer is flushed, which is
 * the reset above: the drain takes over the close (`_last`, Node's "close
 * after this response" flag, is cleared and the drain ends the connection
 * once the body is in). A 408 is left to Node: its body stopped arriving,
 * there is nothing to wait for.
 */
const hooked = new WeakSet<Server>()

export function drainEarlyAnswers(server: Server) {
  if (hooked.has(server)) return
  hooked.add(server)
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!hasBodyOnWire(request)) return
    responses.set(request, response)
    // Before Node's own 'finish' listener, which closes the connection.
    response.prependOnceListener('finish', () => {
      if (request.complete || response.statusCode === 408) return
      const drain = drainRest(request)
      const last = response as ServerResponse & { _last?: boolean }
      if (drain && last._last) {
        last._last = false
        drain.closeAfter = true
      }
    })
  })
}
