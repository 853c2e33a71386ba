import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'
// Every process that talks to the database loads this config: a failed COMMIT then fails the request.
import '#core/database/commit_guard'

/**
 * Behind a transaction-mode pooler (PgBouncer, DATABASE_POOLER=transaction)
 * a server connection is ours for one transaction only, so a named prepared
 * statement made on one may be missing, or already exist, on the next. Every
 * query of the pool then goes unnamed: ours (the listing GET) and those of
 * libraries (the limiter's database store names its statements too).
 */
const pooled = env.get('DATABASE_POOLER') === 'transaction'
function unnamedStatements(connection: any, done: (error: Error | null, connection: any) => void) {
  const query = connection.query.bind(connection)
  connection.query = (config: any, ...rest: any[]) =>
    config && typeof config === 'object' && config.name && typeof config.submit !== 'function'
      ? query({ ...config, name: undefined }, ...rest)
      : query(config, ...rest)
  done(null, connection)
}

const dbConfig = defineConfig({
  connection: 'postgres',
  prettyPrintDebugQueries: false,
  connections: {
    postgres: {
      client: 'pg',
      connection: env.get('DATABASE_URL'),
      pool: { min: 0, max: 10, ...(pooled ? { afterCreate: unnamedStatements } : {}) },
      migrations: { naturalSort: true, paths: ['database/migrations'] },
      // Models declare their columns next to their module; no generated schema file.
      schemaGeneration: { enabled: false },
    },
    // In-process migrations (npm start, catalog:import) take PostgreSQL's
    // session-level advisory lock: it must be released on the connection that
    // took it, so they run on a pool of exactly one.
    migrations: {
      client: 'pg',
      connection: env.get('DATABASE_URL'),
      pool: { min: 0, max: 1 },
      migrations: { naturalSort: true, paths: ['database/migrations'] },
      schemaGeneration: { enabled: false },
    },
  },
})

export default dbConfig
