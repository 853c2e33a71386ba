import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination } from '@adonisjs/core/logger'

const stdout = destination({ dest: 1, sync: false, minLength: 4096 })
setInterval(() => {
  try {
    stdout.flush()
  } catch {
    // Only a destroyed stream (the process is exiting) refuses a flush.
  }
}, 1000).unref()

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'dealership-api',
      level: env.get('LOG_LEVEL') ?? (app.inTest ? 'silent' : 'info'),
      // Straight to stdout from the process: a transport would run a worker
      // thread (its own V8 heap, ~20 MiB) and pass every line to it.
      // Asynchronous and buffered: a request does not wait for its log line, and lines
      // go out in writes of 4 KiB or once a second (a write per line was ~3 % of a busy
      // web process's CPU); pino flushes what is pending when the process exits.
      destination: stdout,
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
