/*
 * The apps module's process-wide state, one per process: the credential
 * memory (start/modules.ts `boot`).
 */
import app from '@adonisjs/core/services/app'
import { CredentialMemory } from '#apps/services/credential_memory'

export function boot() {
  app.container.singleton(CredentialMemory, () => new CredentialMemory())
}
