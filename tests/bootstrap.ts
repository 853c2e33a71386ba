import { assert } from '@japa/assert'
import { ApiClient, apiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import testUtils from '@adonisjs/core/services/test_utils'
import db from '@adonisjs/lucid/services/db'
import { pluginAdonisJS } from '@japa/plugin-adonisjs'
import { migrate, rollbackAll } from '#core/database/migrate'
import type { Config } from '@japa/runner/types'
import { assertContract } from '#tests/helpers/contract'
import { baseUrl } from '#tests/helpers/http'

/*
 * Every response the api client receives is checked against /v3/openapi.json; a mismatch fails
 * the request, and so the test that made it (tests/helpers/contract.ts).
 */
ApiClient.teardown(async (response) => {
  // Requests to other servers (webhook receivers, S3) are not the API's.
  if (new URL(response.request.request.url).origin !== new URL(baseUrl()).origin) return
  // The request as last sent: after a followed redirect, the final one.
  const sent = (response.response as unknown as { req: { method: string; path: string } }).req
  const url = new URL(sent.path, baseUrl())
  await assertContract({
    method: sent.method,
    path: url.pathname,
    status: response.status(),
    headers: response.headers(),
    body: responseBytes(response.text(), response.body(), response.header('content-length')),
  })
})

/** The body as received: superagent keeps text for text media and a Buffer for binary ones. */
function responseBytes(text: string | undefined, body: unknown, length: string | undefined) {
  if (typeof text === 'string') return Buffer.from(text, 'utf8')
  if (Buffer.isBuffer(body)) return body
  return Buffer.alloc(Number(length ?? 0))
}

export const plugins: Config['plugins'] = [assert(), apiClient(), pluginAdonisJS(app)]

/**
 * A clean schema for every run: the job schema is dropped (pg-boss recreates
 * it), application tables are migrated fresh.
 */
export const runnerHooks: Required<Pick<Config, 'setup' | 'teardown'>> = {
  setup: [
    async () => {
      await db.rawQuery('drop schema if exists pgboss cascade')
      // The whole schema, functions and triggers included: a run killed mid-migration leaves them behind.
      await db.rawQuery('drop schema if exists public cascade')
      await db.rawQuery('create schema public')
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
