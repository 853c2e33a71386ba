import { args } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'

export default class AppToken extends AppCommand {
  static commandName = 'app:token'
  static description = 'Issue a new access token for an app; its other tokens keep working'

  @args.string({ description: 'Id of the app' })
  declare appId: string

  async run() {
    const id = Number(this.appId)
    if (!Number.isInteger(id) || id < 1) {
      return this.fail('APP_ID must be a positive integer')
    }
    const { default: IssueToken } = await import('#apps/services/issue_token')
    const result = await new IssueToken().execute(id)
    if (!result.ok) {
      return this.fail(`No app with id ${id}`)
    }
    this.logger.log(`Token for app ${id} (shown once, store it now): ${result.token}`)
  }
}
