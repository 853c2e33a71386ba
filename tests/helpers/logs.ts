/*
 * The application's log records from now until `restore()`: the real logger
 * service writes them (LOG_LEVEL is `silent` in tests), to memory instead of
 * stdout, at `level` and above.
 *
 *   const logs = captureLogs('error')
 *   try { ... } finally { logs.restore() }
 *   logs.records.find((record) => record.msg === '...')
 */
import { Writable } from 'node:stream'
import logger from '@adonisjs/core/services/logger'
import { Logger } from '@adonisjs/core/logger'

export function captureLogs(level: string = 'info') {
  const records: Record<string, any>[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) records.push(JSON.parse(line))
      done()
    },
  })
  const capturing = new Logger({ enabled: true, name: 'test', level, destination: sink })
  const original = logger.pino
  logger.pino = capturing.pino
  return {
    records,
    restore: () => {
      logger.pino = original
    },
  }
}
