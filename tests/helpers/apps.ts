import app from '@adonisjs/core/services/app'
import CreateApp from '#apps/services/create_app'
import IssueToken, { type IssueOptions } from '#apps/services/issue_token'
import { CredentialMemory } from '#apps/services/credential_memory'
import type { Ability } from '#core/auth/abilities'

/** A calling app with a fresh token, as a dealer app would hold it. */
export async function createCaller(name = 'Test app', abilities: Ability[] = []) {
  const { app: created, token } = await (
    await app.container.make(CreateApp)
  ).execute(name, abilities)
  return { app: created, token }
}

/** Another token of an existing app (`ace app:token`): its id and value. */
export async function issueToken(appId: number, options: IssueOptions = {}) {
  const issued = await (await app.container.make(IssueToken)).execute(appId, options)
  if (!issued.ok) throw new Error(`token not issued: ${issued.reason}`)
  return { id: issued.value.row.id, token: issued.value.token }
}

/** Forgets this process's remembered credentials, as if their 5 s had passed. */
export async function forgetCredentials() {
  ;(await app.container.make(CredentialMemory)).forget()
}
