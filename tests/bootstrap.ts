import { assert } from '@japa/assert'
import { apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import { migrate, rollbackAll } from '#core/bootstrap/migrate'
import type { Config } from '@japa/runner/types'

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * A clean schema for every run: the job schema is dropped (pg-boss recreates
 * it), application tables are migrated fresh.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    async () => {
      await db.rawQuery('drop schema if exists pgboss cascade')
      await db.connection().dropAllTables(['public'])
      await db.connection().dropAllTypes(['public'])
      await migrate()
      return async () => {
        await rollbackAll()
      }
    },
  ],
  teardown: [],
}

export const configureSuite: Config['configureSuite'] = (suite) => {
  if (['browser', 'functional', 'e2e'].includes(suite.name)) {
    return suite.setup(() => testUtils.httpServer().start())
  }
}
