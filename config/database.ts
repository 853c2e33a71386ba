import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'
// Every process that talks to the database loads this config: a failed COMMIT then fails the request.
import '#core/database/commit_guard'

const dbConfig = defineConfig({
  connection: 'postgres',
  prettyPrintDebugQueries: false,
  connections: {
    postgres: {
      client: 'pg',
      connection: env.get('DATABASE_URL'),
      pool: { min: 0, max: 10 },
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
