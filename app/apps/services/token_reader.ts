import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'

/** Tokens per page of GET /v3/credenciales, as the spec's other paged lists. */
export const CREDENTIALS_PER_PAGE = 100

export type LiveTokenPage = { rows: TokenRow[]; total: number; page: number; perPage: number }

/** A token still authenticates: neither revoked nor expired (its app's state aside). */
export const isLive = (token: TokenRow, now: DateTime = DateTime.now()) =>
  !token.revokedAt && !(token.expiresAt && token.expiresAt <= now)

/** An app's tokens, never their secrets. */
@inject()
export default class TokenReader {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore
  ) {}

  /** Every token of the app, revoked and expired included (`ace app:tokens`); null: no such app. */
  async ofApp(appId: number): Promise<TokenRow[] | null> {
    if (!(await this.apps.find(appId))) return null
    return this.tokens.ofApp(appId)
  }

  /**
   * A page of the calling app's tokens that still authenticate, oldest first
   * (GET /v3/credenciales). An app holds at most 20 live tokens now; one that
   * gathered more before that limit still lists them all, a page at a time.
   */
  async livePage(appId: number, page: number): Promise<LiveTokenPage> {
    const found = await this.tokens.livePage(appId, DateTime.now(), {
      page,
      perPage: CREDENTIALS_PER_PAGE,
    })
    return { ...found, page, perPage: CREDENTIALS_PER_PAGE }
  }

  /** One of them; null for another app's, a revoked or an expired token. */
  async liveOne(appId: number, tokenId: number): Promise<TokenRow | null> {
    const token = await this.tokens.find(tokenId)
    return token && token.appId === appId && isLive(token) ? token : null
  }
}
