import { args, flags } from '@adonisjs/core/ace'
import { ABILITIES, type Ability } from '#core/auth/abilities'
import { AppsCommand } from './apps_command.js'

export default class AppCreate extends AppsCommand {
  static commandName = 'app:create'
  static description = 'Create an app (API client) and print its first access token once'

  @args.string({ description: 'Name of the app' })
  declare name: string

  @flags.array({ description: `Ability to grant (${ABILITIES.join(', ')}); repeatable` })
  declare ability: string[]

  @flags.boolean({ description: 'Print {"Id","Nombre","Token"} as JSON only' })
  declare json: boolean

  async run() {
    const abilities = this.ability ?? []
    const unknown = abilities.filter((ability) => !ABILITIES.includes(ability as Ability))
    if (unknown.length > 0) {
      return this.fail(`Unknown ability: ${unknown.join(', ')}. Known: ${ABILITIES.join(', ')}`)
    }
    if (this.name.trim().length === 0 || this.name.length > 100) {
      return this.fail('The name must have 1 to 100 characters')
    }
    const creator = await this.make(() => import('#apps/services/create_app'))
    const { app, token } = await creator.execute(this.name.trim(), abilities as Ability[])
    if (this.json) {
      return this.printJson({ Id: app.id, Nombre: app.name, Token: token })
    }
    this.logger.success(`App ${app.id} "${app.name}" created`)
    this.logger.log(`Token (shown once, store it now): ${token}`)
  }
}
