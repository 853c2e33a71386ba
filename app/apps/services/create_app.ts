import App from '#apps/models/app'
import type { Ability } from '#core/auth/abilities'

/** Creates an app and its first token; the token's secret is returned once. */
export default class CreateApp {
  async execute(name: string, abilities: Ability[] = []) {
    const app = await App.create({ name, abilities })
    const token = await App.accessTokens.create(app, ['*'], { name: 'initial' })
    return { app, token: token.value!.release() }
  }
}
