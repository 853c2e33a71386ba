import CreateApp from '#apps/services/create_app'
import type { Ability } from '#core/auth/abilities'

/** A calling app with a fresh token, as a dealer app would hold it. */
export async function createCaller(name = 'Test app', abilities: Ability[] = []) {
  const { app, token } = await new CreateApp().execute(name, abilities)
  return { app, token }
}
