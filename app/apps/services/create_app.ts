import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import AppStore, { type AppRow } from '#apps/stores/app_store'
import TokenStore from '#apps/stores/token_store'
import { insertToken } from '#apps/services/issue_token'
import { UnitOfWork } from '#core/database/unit_of_work'
import type { Ability } from '#core/auth/abilities'

/** Creates an app and its first token (`initial`); the token's secret is returned once. */
@inject()
export default class CreateApp {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore,
    private unitOfWork: UnitOfWork,
    private logger: Logger
  ) {}

  async execute(name: string, abilities: Ability[] = []): Promise<{ app: AppRow; token: string }> {
    const { app, issued } = await this.unitOfWork.run(async (tx) => {
      const created = await this.apps.create({ name, abilities }, tx)
      const token = await insertToken(
        this.tokens,
        created.id,
        { name: 'initial', expiresAt: null },
        tx
      )
      return { app: created, issued: token }
    })
    this.logger.info({ appId: app.id, tokenId: issued.row.id }, 'app created, token issued')
    return { app, token: issued.token }
  }
}
