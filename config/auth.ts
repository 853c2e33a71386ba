import { defineConfig } from '@adonisjs/auth'
import { tokensGuard } from '@adonisjs/auth/access_tokens'
import { AppsUserProvider } from '#apps/services/app_credentials'
import type { InferAuthenticators, InferAuthEvents, Authenticators } from '@adonisjs/auth/types'

/** Apps authenticate with opaque bearer tokens stored hashed in `app_tokens`. */
const authConfig = defineConfig({
  default: 'api',
  guards: {
    api: tokensGuard({
      provider: new AppsUserProvider({
        tokens: 'accessTokens',
        model: () => import('#apps/models/app'),
      }),
    }),
  },
})

export default authConfig

declare module '@adonisjs/auth/types' {
  export interface Authenticators extends InferAuthenticators<typeof authConfig> {}
}
declare module '@adonisjs/core/types' {
  interface EventsList extends InferAuthEvents<Authenticators> {}
}
