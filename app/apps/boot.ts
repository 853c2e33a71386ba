/*
 * The apps module's process-wide state, one per process (start/modules.ts
 * `boot`): the credential memory, and the authenticator built on it. The
 * middleware every API request makes is built once (app/core/build_once.ts).
 */
import app from '@adonisjs/core/services/app'
import { CredentialMemory } from '#apps/services/credential_memory'
import AuthenticateApp from '#apps/services/authenticate_app'
import TokenStore from '#apps/stores/token_store'
import { buildOnce } from '#core/build_once'

export async function boot() {
  app.container.singleton(CredentialMemory, () => new CredentialMemory())
  app.container.singleton(
    AuthenticateApp,
    async (resolver) =>
      new AuthenticateApp(await resolver.make(CredentialMemory), await resolver.make(TokenStore))
  )
  await buildOnce(() => import('#apps/middleware/authenticate_middleware'))
}
