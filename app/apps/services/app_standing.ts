/*
 * Whether an app may still have work done in its name (docs/design.md §25): a
 * background job acting for an app (a stock sync) asks before each batch, so
 * `ace app:disable` or revoking every token stops it. Read only.
 */
import { inject } from '@adonisjs/core'
import AppStore from '#apps/stores/app_store'
import TokenStore from '#apps/stores/token_store'
import { isLive } from './token_reader.js'

/** `active`: enabled, with at least one token that still authenticates. */
export type Standing = 'active' | 'disabled' | 'no_live_token' | 'gone'

@inject()
export default class AppStanding {
  constructor(
    private apps: AppStore,
    private tokens: TokenStore
  ) {}

  async of(appId: number): Promise<Standing> {
    const app = await this.apps.find(appId)
    if (!app) return 'gone'
    if (app.disabledAt) return 'disabled'
    const tokens = await this.tokens.ofApp(appId)
    return tokens.some((token) => isLive(token)) ? 'active' : 'no_live_token'
  }
}
