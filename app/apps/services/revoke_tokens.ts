/*
 * `ace app:revoke TOKEN_ID` / `ace app:revoke --app APP_ID --all`: a revoked
 * token answers 401 in every web process within the credential memory
 * (5 s). Revoking is idempotent: a token revoked before keeps its first date.
 * Revoking all of an app's tokens holds the app's row lock (as RotateToken and
 * IssueToken do): a rotation in flight either commits before (its new token is
 * revoked too) or waits and finds its calling token revoked — nothing is left
 * alive.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore from '#apps/stores/token_store'
import { CredentialMemory } from '#apps/services/credential_memory'
import { UnitOfWork } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'

export type RevokeTarget = { tokenId: number } | { appId: number }
export type RevokeFailure = 'token_not_found' | 'app_not_found'

@inject()
export default class RevokeTokens {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore,
    private unitOfWork: UnitOfWork,
    private memory: CredentialMemory,
    private logger: Logger
  ) {}

  /** The ids of the tokens revoked now (one token: its id, revoked now or before). */
  async execute(
    target: RevokeTarget,
    now: DateTime = DateTime.now()
  ): Promise<Result<{ revoked: number[] }, RevokeFailure>> {
    let revoked: number[]
    if ('tokenId' in target) {
      const row = await this.tokens.revoke(target.tokenId, now)
      if (!row) return fail('token_not_found')
      revoked = [row.id]
      this.logger.info({ appId: row.appId, tokenId: row.id }, 'app token revoked')
    } else {
      const all = await this.unitOfWork.run(async (tx) =>
        (await this.apps.lock(target.appId, tx))
          ? await this.tokens.revokeAllOfApp(target.appId, now, tx)
          : null
      )
      if (!all) return fail('app_not_found')
      revoked = all
      this.logger.info({ appId: target.appId, tokenIds: revoked }, 'app tokens revoked')
    }
    this.memory.forget()
    return ok({ revoked })
  }
}
