/*
 * A new token for an existing app (`ace app:token`); its other tokens stay
 * valid until they expire or are revoked. The secret is returned once and
 * only its hash is stored. An app holds at most MAX_LIVE_TOKENS live tokens
 * (docs/design.md §25): counted under the app's row lock, so tokens issued at
 * once cannot pass the limit together.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'
import { newSecret, tokenValue } from '#apps/services/token_format'
import { UnitOfWork, type Tx } from '#core/database/unit_of_work'
import { fail, ok, type Result } from '#core/result'

/** Live tokens (neither revoked nor expired) an app may hold at once. */
export const MAX_LIVE_TOKENS = 20

export type IssueOptions = { name?: string | null; expiresInSeconds?: number | null }
export type Issued = { row: TokenRow; token: string }
export type IssueFailure = 'app_not_found' | 'token_limit'

/** Inserts a token for `appId` and makes its value: the one place a secret is born. */
export async function insertToken(
  tokens: TokenStore,
  appId: number,
  token: { name: string | null; expiresAt: DateTime | null },
  tx?: Tx
): Promise<Issued> {
  const { secret, hash } = newSecret()
  const row = await tokens.insert({ appId, name: token.name, hash, expiresAt: token.expiresAt }, tx)
  return { row, token: tokenValue(row.id, secret) }
}

@inject()
export default class IssueToken {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore,
    private unitOfWork: UnitOfWork,
    private logger: Logger
  ) {}

  async execute(
    appId: number,
    options: IssueOptions = {},
    now: DateTime = DateTime.now()
  ): Promise<Result<Issued, IssueFailure>> {
    const expiresAt = options.expiresInSeconds
      ? now.plus({ seconds: options.expiresInSeconds })
      : null
    const result = await this.unitOfWork.run(async (tx): Promise<Result<Issued, IssueFailure>> => {
      if (!(await this.apps.lock(appId, tx))) return fail('app_not_found')
      const live = await this.tokens.countLive(appId, now, tx)
      if (live >= MAX_LIVE_TOKENS) return fail('token_limit')
      return ok(
        await insertToken(this.tokens, appId, { name: options.name ?? null, expiresAt }, tx)
      )
    })
    if (result.ok) this.logger.info({ appId, tokenId: result.value.row.id }, 'app token issued')
    return result
  }
}
