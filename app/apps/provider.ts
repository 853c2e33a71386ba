/*
 * The apps module's provider: the credential memory and the authenticator
 * built on it (process-wide state), the middleware of every API request, and
 * the module's queues, OpenAPI fragment and start step (the demo app).
 */
import '#core/http/validation_messages'
import type { ApplicationService } from '@adonisjs/core/types'
import { Lifetimes } from '#core/lifetimes'
import ModuleRegistry from '#core/modules'
import { CredentialMemory } from '#apps/services/credential_memory'
import AuthenticateApp from '#apps/services/authenticate_app'
import TokenStore from '#apps/stores/token_store'
import AuthenticateMiddleware from '#apps/middleware/authenticate_middleware'
import AppEvents from '#apps/services/app_events'
import AppEventStore from '#apps/stores/app_event_store'

export default class AppsProvider {
  constructor(protected app: ApplicationService) {}

  register() {
    const lifetimes = Lifetimes.of(this.app.container)
    // What a token resolved to, remembered for every request of this process.
    lifetimes.singleton(CredentialMemory, () => new CredentialMemory())
    // Keeps nothing but its collaborators; the store reads through the process's pool.
    lifetimes.singleton(TokenStore)
    // Built on the memory above: one for the process, like it.
    lifetimes.singleton(AuthenticateApp)
    // Runs on every API request and keeps nothing between them (docs/performance.md).
    lifetimes.singleton(AuthenticateMiddleware)
    // The outbox every module's write emits into: keeps nothing between writes.
    lifetimes.singleton(AppEvents)
    lifetimes.singleton(AppEventStore)
  }

  async boot() {
    const registry = await this.app.container.make(ModuleRegistry)
    registry.contribute('apps', {
      jobs: () => import('#apps/jobs'),
      openapi: () => import('#apps/openapi'),
      start: () => import('#apps/start'),
    })
  }
}
