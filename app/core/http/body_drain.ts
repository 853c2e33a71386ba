/*
 * What happens to the rest of a body the service will not read (a 413).
 */
import type { IncomingMessage } from 'node:http'
import { settings } from '#core/settings'

/**
 * The parser stops reading a body at the limit and leaves it on the wire: the
 * client, still sending, fills the window, and the keep-alive timeout then
 * closes a socket with unread bytes, a reset that loses the 413 for a client
 * that reads only after sending. Read the rest and discard it, within bounds,
 * so the 413 goes out on a connection that ends cleanly; past the bounds
 * (`settings.tooLargeDrain`) the socket is cut: a client sending far more is
 * not waited for.
 */
export function drainRest(request: IncomingMessage) {
  if (request.complete) return
  const socket = request.socket
  const start = socket.bytesRead
  const cut = () => {
    if (!request.complete) socket.destroy()
  }
  const { bytes, ms } = settings.tooLargeDrain
  const deadline = setTimeout(cut, ms).unref()
  const counter = () => {
    if (socket.bytesRead - start > bytes) cut()
  }
  request.unpipe()
  request.removeAllListeners('data')
  request.on('data', counter)
  request.once('end', () => clearTimeout(deadline))
  request.once('close', () => clearTimeout(deadline))
  request.resume()
}
