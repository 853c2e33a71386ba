/*
 * The apps module's process-wide state, one per process (start/modules.ts
 * `boot`): the credential memory, and the authenticator built on it — a
 * singleton too, so that the middleware every API request makes resolves two
 * cached instances instead of building the authenticator's graph each time.
 */
import app from '@adonisjs/core/services/app'
import { CredentialMemory } from '#apps/services/credential_memory'
import AuthenticateApp from '#apps/services/authenticate_app'
import TokenStore from '#apps/stores/token_store'

export function boot() {
  app.container.singleton(CredentialMemory, () => new CredentialMemory())
  app.container.singleton(
    AuthenticateApp,
    async (resolver) =>
      new AuthenticateApp(await resolver.make(CredentialMemory), await resolver.make(TokenStore))
  )
}
