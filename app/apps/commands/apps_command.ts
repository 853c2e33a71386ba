/*
 * The base of the apps commands, and of those about one app (APP_ID).
 */
import { args } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { idOf } from '#core/commands/command_input'

export abstract class AppsCommand extends AppCommand {
  /**
   * The audit lines the apps services log (ids only) go to stderr while the
   * command runs: its stdout is its output (`--json`: exactly one JSON document).
   */
  async prepare() {
    const { Logger, destination } = await import('@adonisjs/core/logger')
    const config = this.app.config.get<any>('logger')
    const options = config.loggers[config.default]
    this.app.container.bindValue(
      Logger,
      new Logger({ ...options, destination: destination({ dest: 2, sync: true }) })
    )
  }
}

/** An apps command about one app: APP_ID must be an id before `runFor` runs. */
export abstract class AppIdCommand extends AppsCommand {
  @args.string({ description: 'Id of the app' })
  declare appId: string

  async run() {
    const id = idOf(this.appId)
    if (id === null) return this.fail('APP_ID must be a positive integer')
    await this.runFor(id)
  }

  /** The command for the app `id` (well-formed; there may be no such app). */
  protected abstract runFor(id: number): Promise<void>
}
