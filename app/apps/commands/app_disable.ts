import { args } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { auditToStderr, idOf } from './command_input.js'

export default class AppDisable extends AppCommand {
  static commandName = 'app:disable'
  static description =
    'Disable an app: all its tokens answer 401 within 5 s (app:enable brings them back)'

  @args.string({ description: 'Id of the app' })
  declare appId: string

  /** What the command sets (app:enable extends it with true). */
  protected enabled = false

  async run() {
    await auditToStderr(this.app)
    const id = idOf(this.appId)
    if (id === null) return this.fail('APP_ID must be a positive integer')
    const { default: SetAppEnabled } = await import('#apps/services/set_app_enabled')
    const switcher = await this.app.container.make(SetAppEnabled)
    const result = await switcher.execute(id, this.enabled)
    if (!result.ok) return this.fail(`No app with id ${id}`)
    this.logger.success(`App ${id} ${this.enabled ? 'enabled' : 'disabled'}`)
  }
}
