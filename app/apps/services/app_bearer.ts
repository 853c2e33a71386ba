/*
 * The app a bearer token stands for: the token verified by the apps' token
 * provider (app_credentials.ts), then its app, both remembered for a few
 * seconds. What Adonis' access-tokens guard does, without the authenticator,
 * guard and two events it built on every request.
 */
import { Secret } from '@adonisjs/core/helpers'
import App from '#apps/models/app'
import { rememberedApps } from './app_credentials.js'

/** The app, or null: an unknown, wrong, expired or malformed token, or an app since deleted. */
export async function appOfBearer(token: string): Promise<App | null> {
  const verified = await App.accessTokens.verify(new Secret(token))
  if (!verified) return null
  const key = String(verified.tokenableId)
  const known = rememberedApps.get(key)
  if (known) return known
  const app = await App.find(verified.tokenableId)
  if (app) rememberedApps.set(key, app)
  return app
}
