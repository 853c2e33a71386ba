/*
 * A new token for an existing app (`ace app:token`); its other tokens stay
 * valid until they expire or are revoked. The secret is returned once and
 * only its hash is stored.
 */
import { inject } from '@adonisjs/core'
import { Logger } from '@adonisjs/core/logger'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'
import { newSecret, tokenValue } from '#apps/services/token_format'
import { fail, ok, type Result } from '#core/result'
import type { Tx } from '#core/database/unit_of_work'

export type IssueOptions = { name?: string | null; expiresInSeconds?: number | null }
export type Issued = { row: TokenRow; token: string }

/** Inserts a token for `appId` and makes its value: the one place a secret is born. */
export async function insertToken(
  tokens: TokenStore,
  appId: number,
  options: IssueOptions,
  now: DateTime,
  tx?: Tx
): Promise<Issued> {
  const { secret, hash } = newSecret()
  const expiresAt = options.expiresInSeconds
    ? now.plus({ seconds: options.expiresInSeconds })
    : null
  const row = await tokens.insert({ appId, name: options.name ?? null, hash, expiresAt }, tx)
  return { row, token: tokenValue(row.id, secret) }
}

@inject()
export default class IssueToken {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore,
    private logger: Logger
  ) {}

  async execute(
    appId: number,
    options: IssueOptions = {},
    now: DateTime = DateTime.now()
  ): Promise<Result<Issued, 'app_not_found'>> {
    if (!(await this.apps.find(appId))) return fail('app_not_found')
    const issued = await insertToken(this.tokens, appId, options, now)
    this.logger.info({ appId, tokenId: issued.row.id }, 'app token issued')
    return ok(issued)
  }
}
