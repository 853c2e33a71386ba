/*
 * Shared Ignitor setup of every entry point (web, ace, tests): loads the env
 * and, when no DATABASE_URL is configured, attaches the embedded PostgreSQL.
 */
import 'reflect-metadata'
import { Ignitor } from '@adonisjs/core'

export const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

export function createIgnitor() {
  return new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
    app.booting(async () => {
      const { default: env } = await import('#start/env')
      const { attachDatabase } = await import('#core/database/embedded')
      await attachDatabase(env, app.makePath())
    })
    // Graceful stop: requests finish, jobs stop, connections close, then the
    // embedded database (if this process started it) stops last.
    const stop = async () => {
      await app.terminate()
      process.exit(process.exitCode ?? 0)
    }
    app.listen('SIGTERM', stop)
    app.listen('SIGINT', stop)
  })
}
