/*
 * GET /v3/aplicacion (docs/design.md §19): the calling app as stored now — its
 * name and abilities read from the table, not from the credential memory, so an
 * `app:ability` change shows here at once.
 */
import { inject } from '@adonisjs/core'
import AppStore, { type AppRow } from '#apps/stores/app_store'
import type { Caller } from '#core/auth/app_scoped'
import { fail, ok, type Result } from '#core/result'

@inject()
export default class ReadApplication {
  constructor(private apps: AppStore) {}

  async execute(caller: Caller): Promise<Result<AppRow, 'app_not_found'>> {
    const app = await this.apps.find(caller.id)
    return app ? ok(app) : fail('app_not_found')
  }
}
