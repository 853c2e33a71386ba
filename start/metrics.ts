/*
 * The web process's metrics port (METRICS_PORT; off when unset). `npm start`
 * starts it from its command (app/core/commands/start.ts).
 */
import app from '@adonisjs/core/services/app'
import { serveMetricsPort } from '#core/metrics/endpoint'

await serveMetricsPort(app)
