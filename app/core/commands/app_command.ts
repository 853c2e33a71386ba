/*
 * The base of the operators' commands: they run in the booted app, a refusal
 * is one error line and a non-zero exit code, and their services come from
 * the container, imported when the command runs.
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

  /**
   * The container's instance of the class a file exports by default:
   * `await this.make(() => import('#core/jobs/runner'))`.
   */
  protected async make<Service>(load: () => Promise<{ default: Service }>) {
    const { default: service } = await load()
    return this.app.container.make(service)
  }

  /** Writes `value` on stdout as one line of JSON (`--json`: the command's whole output). */
  protected printJson(value: unknown) {
    process.stdout.write(JSON.stringify(value) + '\n')
  }
}
