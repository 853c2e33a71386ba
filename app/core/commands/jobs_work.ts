import { flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { AppCommand } from './app_command.js'

export default class JobsWork extends AppCommand {
  static commandName = 'jobs:work'
  static description = 'Run the job workers and cron schedules (no HTTP)'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  @flags.array({ description: 'Only these queues (comma-separated or repeated)' })
  declare queues: string[]

  async run() {
    // The HTTP server commits the routes when it starts; a worker does it here: stock.sync words a
    // row's errors from the OpenAPI document (membersOf), which checks every route has its metadata.
    const router = await this.app.container.make('router')
    router.commit()
    const runner = await this.make(() => import('#core/jobs/runner'))
    const queues = (this.queues ?? [])
      .flatMap((value) => value.split(','))
      .map((q) => q.trim())
      .filter(Boolean)
    const working = await runner.work({ work: queues.length > 0 ? queues : true, schedule: true })
    this.logger.info(
      `Working ${working.length} queue(s): ${working.join(', ') || '(none registered)'}`
    )
    // SIGINT/SIGTERM terminate the app (bin/boot.ts); the runner stops gracefully then.
  }
}
