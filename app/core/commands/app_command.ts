/*
 * The base of the operators' commands: they run in the booted app, and a
 * refusal is one error line and a non-zero exit code.
 */
import { BaseCommand } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

export abstract class AppCommand extends BaseCommand {
  static options: CommandOptions = { startApp: true }

  /** Reports `message` and makes the command exit with 1. */
  protected fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
