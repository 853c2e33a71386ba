import { AppIdCommand } from './apps_command.js'

export default class AppDisable extends AppIdCommand {
  static commandName = 'app:disable'
  static description =
    'Disable an app: all its tokens answer 401 within 5 s (app:enable brings them back)'

  /** What the command sets (app:enable extends it with true). */
  protected enabled = false

  protected async runFor(id: number) {
    const switcher = await this.make(() => import('#apps/services/set_app_enabled'))
    const result = await switcher.execute(id, this.enabled)
    if (!result.ok) return this.fail(`No app with id ${id}`)
    this.logger.success(`App ${id} ${this.enabled ? 'enabled' : 'disabled'}`)
  }
}
