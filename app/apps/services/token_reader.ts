import { inject } from '@adonisjs/core'
import { DateTime } from 'luxon'
import AppStore from '#apps/stores/app_store'
import TokenStore, { type TokenRow } from '#apps/stores/token_store'

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

  /** The calling app's tokens that still authenticate (GET /v3/credenciales). */
  async live(appId: number): Promise<TokenRow[]> {
    const now: DateTime = DateTime.now()
    const tokens = await this.tokens.ofApp(appId)
    return tokens.filter((token) => isLive(token, now))
  }

  /** One of them; null for another app's, a revoked or an expired token. */
  async liveOne(appId: number, tokenId: number): Promise<TokenRow | null> {
    const token = await this.tokens.find(tokenId)
    return token && token.appId === appId && isLive(token) ? token : null
  }
}
