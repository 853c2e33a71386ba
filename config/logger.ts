import env from '#start/env'
import app from '@adonisjs/core/services/app'
import { defineConfig, destination } from '@adonisjs/core/logger'

const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'dealership-api',
      level: env.get('LOG_LEVEL') ?? (app.inTest ? 'silent' : 'info'),
      // Straight to stdout from the process: a transport would run a worker
      // thread (its own V8 heap, ~20 MiB) and pass every line to it.
      // Asynchronous: a request does not wait for its log line's write (lines written
      // meanwhile go out together); pino flushes what is pending when the process exits.
      destination: destination({ dest: 1, sync: false }),
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
