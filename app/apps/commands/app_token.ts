import { BaseCommand, args } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

export default class AppToken extends BaseCommand {
  static commandName = 'app:token'
  static description = 'Issue a new access token for an app; its other tokens keep working'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Id of the app' })
  declare appId: string

  async run() {
    const id = Number(this.appId)
    if (!Number.isInteger(id) || id < 1) {
      this.logger.error('APP_ID must be a positive integer')
      this.exitCode = 1
      return
    }
    const { default: IssueToken } = await import('#apps/services/issue_token')
    const result = await new IssueToken().execute(id)
    if (!result.ok) {
      this.logger.error(`No app with id ${id}`)
      this.exitCode = 1
      return
    }
    this.logger.log(`Token for app ${id} (shown once, store it now): ${result.token}`)
  }
}
