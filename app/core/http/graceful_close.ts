/*
 * Deploys (docs/design.md §13): on close the HTTP server stops accepting, answers
 * every request it already received, closes idle keep-alive connections and
 * gives up after a deadline. Node's own `server.close()` closes every
 * connection without a parsed request at once — including ones just accepted
 * whose request bytes are still unread — and leaves keep-alive connections
 * open until their timeout: clients saw ECONNRESET and shutdowns took 5 s+.
 */
import net from 'node:net'
import type { Server, ServerResponse } from 'node:http'
import { isDraining } from './body_drain.js'

type Connection = { responses: Set<ServerResponse>; served: number }

export type GracefulCloseOptions = {
  /** Requests still running after this are cut off (docs/design.md §13: 25 s). */
  deadlineMs?: number
  /** A connection with no request yet gets this long to send one (like Go's http.Server). */
  firstRequestMs?: number
  /** At most this long is spent accepting what waits in the kernel's accept queue. */
  drainMs?: number
}

/** Makes `server.close()` graceful; returns the server. */
export function gracefulClose<T extends Server>(server: T, options: GracefulCloseOptions = {}): T {
  const { deadlineMs = 25_000, firstRequestMs = 5_000, drainMs = 5_000 } = options
  const connections = new Map<net.Socket, Connection>()
  let accepted = 0
  let closing = false

  const settle = (socket: net.Socket, connection: Connection) => {
    if (connection.responses.size > 0) return
    if (connection.served > 0) {
      // One still draining an early answer's body is half-closed: a reset would lose that answer (body_drain.ts).
      if (isDraining(socket)) socket.end()
      else socket.destroy()
    } else {
      setTimeout(() => connection.responses.size === 0 && socket.destroy(), firstRequestMs).unref()
    }
  }

  server.on('connection', (socket: net.Socket) => {
    accepted++
    const connection: Connection = { responses: new Set(), served: 0 }
    connections.set(socket, connection)
    socket.once('close', () => connections.delete(socket))
    if (closing) settle(socket, connection)
  })

  server.on('request', (request, response: ServerResponse) => {
    const socket = request.socket
    const connection = connections.get(socket)
    if (!connection) return
    connection.responses.add(response)
    if (closing && !response.headersSent) response.setHeader('connection', 'close')
    response.once('close', () => {
      connection.responses.delete(response)
      connection.served++
      // A response whose headers went out before the close began kept the
      // connection alive: end it now that it is idle.
      if (closing && connection.responses.size === 0) socket.end()
    })
  })

  const begin = async () => {
    closing = true
    // Connections the kernel completed before the signal wait in the accept
    // queue; closing the listening socket now would reset them. Let the event
    // loop accept them until a turn brings no new one. A busy loop accepts one
    // connection per turn (seen: 50 queued took 50 turns of 50–100 ms), so the
    // bound is time, not a number of turns; a steady stream of new
    // connections can't hold the close open past it.
    // One quiet turn is not enough: a turn spent on timers can end before the
    // poll phase accepts, so the queue counts as drained after 20 ms without one.
    const drainUntil = Date.now() + drainMs
    let quietSince = Date.now()
    while (Date.now() < drainUntil && Date.now() - quietSince < 20) {
      const seen = accepted
      await new Promise((resolve) => setTimeout(resolve, 1))
      if (accepted !== seen) quietSince = Date.now()
    }
    // Stop listening without http's closeIdleConnections() (see the header).
    net.Server.prototype.close.call(server)
    for (const [socket, connection] of connections) {
      for (const response of connection.responses) {
        if (!response.headersSent) response.setHeader('connection', 'close')
      }
      settle(socket, connection)
    }
    setTimeout(() => server.closeAllConnections(), deadlineMs).unref()
  }

  let closed: Promise<void> | null = null
  ;(server as Server).close = (callback) => {
    closed ??= new Promise<void>((resolve) => {
      server.once('close', () => resolve())
      void begin()
    })
    if (callback) void closed.then(() => callback())
    return server
  }

  return server
}
