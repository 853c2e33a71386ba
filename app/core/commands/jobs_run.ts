import { BaseCommand, args, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'

export default class JobsRun extends BaseCommand {
  static commandName = 'jobs:run'
  static description = 'Run one job of a queue now, in this process (e.g. invitations.poll)'
  static options: CommandOptions = { startApp: true }

  @args.string({ description: 'Queue name' })
  declare name: string

  @flags.string({ description: 'Job data as JSON' })
  declare data: string

  async run() {
    const { default: JobRunner } = await import('#core/jobs/runner')
    const runner = await this.app.container.make(JobRunner)
    const known = runner.definitions().map((definition) => definition.name)
    if (!known.includes(this.name)) {
      this.logger.error(`Unknown queue "${this.name}". Known: ${known.join(', ') || '(none)'}`)
      this.exitCode = 1
      return
    }
    let data: object = {}
    try {
      data = this.data ? JSON.parse(this.data) : {}
    } catch {
      this.logger.error('--data is not valid JSON')
      this.exitCode = 1
      return
    }
    await runner.runNow(this.name, data)
    this.logger.success(`Ran ${this.name}`)
  }
}
