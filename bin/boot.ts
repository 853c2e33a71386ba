/*
 * Shared Ignitor setup of every entry point (web, ace, tests): loads the env
 * and, when no DATABASE_URL is configured, attaches the embedded PostgreSQL
 * (not for a test run of unit specs only: bin/test_selection.ts).
 */
import 'reflect-metadata'
import { Ignitor, prettyPrintError } from '@adonisjs/core'

export const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

/**
 * `database: false` (a unit-only test run, bin/test.ts) boots without attaching PostgreSQL;
 * `'existing'` (most ace commands, bin/console.ts) attaches only a database that was made.
 */
export function createIgnitor({
  database = true,
}: { database?: boolean | 'create' | 'existing' } = {}) {
  return new Ignitor(APP_ROOT, { importer: IMPORTER }).tap((app) => {
    app.booting(async () => {
      if (!database) return
      const { default: env } = await import('#start/env')
      const { attachDatabase } = await import('#core/database/embedded')
      await attachDatabase(env, app.makePath(), database === 'existing' ? 'existing' : 'create')
    })
    // Graceful stop: the HTTP server closes first and answers what it received
    // (app/core/http/graceful_close.ts), jobs stop after their current one,
    // connections close, then the embedded database (if this process started
    // it) stops last.
    // A second signal waits for the same stop: under `npm start` a Ctrl-C
    // reaches node twice (from the terminal and forwarded by npm).
    let stopping: Promise<never> | null = null
    const stop = () =>
      (stopping ??= app
        .terminate()
        .catch(async (error) => {
          process.exitCode = 1
          await prettyPrintError(error)
        })
        .then(() => process.exit(process.exitCode ?? 0)))
    app.listen('SIGTERM', stop)
    app.listen('SIGINT', stop)
  })
}

/**
 * Entry points' last word on a failed start: errors meant for the operator
 * (`operatorMessage`, e.g. the embedded database's) are one line, the rest
 * pretty-printed.
 */
export async function reportStartupError(error: unknown) {
  process.exitCode = 1
  if (error instanceof Error && 'operatorMessage' in error) {
    console.error(error.message)
    return
  }
  await prettyPrintError(error)
}
