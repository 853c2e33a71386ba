import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from './app_command.js'

export default class JobsRun extends AppCommand {
  static commandName = 'jobs:run'
  static description = 'Run one job of a queue now, in this process (e.g. invitations.poll)'

  @args.string({ description: 'Queue name' })
  declare name: string

  @flags.string({ description: 'Job data as JSON' })
  declare data: string

  async run() {
    const runner = await this.make(() => import('#core/jobs/runner'))
    const known = runner.definitions().map((definition) => definition.name)
    if (!known.includes(this.name)) {
      return this.fail(`Unknown queue "${this.name}". Known: ${known.join(', ') || '(none)'}`)
    }
    let data: object = {}
    try {
      data = this.data ? JSON.parse(this.data) : {}
    } catch {
      return this.fail('--data is not valid JSON')
    }
    await runner.runNow(this.name, data)
    this.logger.success(`Ran ${this.name}`)
  }
}
