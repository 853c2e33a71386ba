/*
 * `ace app:disable APP_ID` / `ace app:enable APP_ID`: a disabled app's tokens
 * all answer 401 (within the credential memory, 5 s) and keep their state, so
 * enabling it again brings back exactly the tokens that were valid.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import AppStore, { type AppRow } from '#apps/stores/app_store'
import { CredentialMemory } from '#apps/services/credential_memory'
import { fail, ok, type Result } from '#core/result'

@inject()
export default class SetAppEnabled {
  constructor(
    private apps: AppStore,
    private memory: CredentialMemory,
    private logger: Logger
  ) {}

  async execute(
    appId: number,
    enabled: boolean,
    now: DateTime = DateTime.now()
  ): Promise<Result<AppRow, 'app_not_found'>> {
    const app = await this.apps.find(appId)
    if (!app) return fail('app_not_found')
    // Disabling twice keeps the first date; enabling an enabled app writes nothing.
    if (enabled === !app.disabledAt) return ok(app)
    const changed = await this.apps.setDisabledAt(appId, enabled ? null : now)
    if (!changed) return fail('app_not_found')
    this.memory.forget()
    this.logger.info({ appId }, enabled ? 'app enabled' : 'app disabled')
    return ok(changed)
  }
}
