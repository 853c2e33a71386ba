/*
 * The web process (production: `node bin/server.js` inside build/). The
 * framework loads after the Node version check.
 */
import './require_node.js'

const { createServer } = await import('node:http')
const { createIgnitor, reportStartupError } = await import('./boot.js')
const { gracefulClose } = await import('#core/http/graceful_close')

createIgnitor()
  .httpServer()
  // SIGTERM: the Ignitor closes this server first (app.terminating); the
  // graceful close answers what was received before jobs and pools stop.
  .start((handler) => gracefulClose(createServer(handler)))
  .catch(reportStartupError)
