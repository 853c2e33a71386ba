import { createServer, type Server } from 'node:http'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import { gracefulClose } from '#core/http/graceful_close'
import { AppCommand } from './app_command.js'

/**
 * `npm start`: the newcomer's one-machine service. Migrates, loads reference
 * data, runs the modules' start steps (the apps module creates a demo app on
 * first boot, its token printed once; the buyers module adds demo data to it), and runs the web server and the job
 * workers in this process until Ctrl-C / SIGTERM.
 */
export default class Start extends AppCommand {
  static commandName = 'start'
  static description = 'Migrate, seed and run web + worker in one process (newcomer setup)'
  static options: CommandOptions = { startApp: true, staysAlive: true }

  async run() {
    const { migrate } = await import('#core/database/migrate')
    const { referenceDataLoaders } = await import('#core/bootstrap/reference_data')
    const { contributions } = await import('#core/modules')
    const { settings } = await import('#core/settings')

    const migrated = await migrate()
    this.logger.info(
      migrated ? `Applied ${migrated} migration(s)` : 'Database schema is up to date'
    )
    for (const loader of await referenceDataLoaders()) {
      const summary = await loader.load()
      this.logger.info(`Reference data ${loader.name}: ${summary ?? 'ok'}`)
    }
    // One context for every step: a step hands on what later ones build on (the demo app).
    const context = { logger: this.logger, ui: this.ui, publicUrl: settings.publicUrl }
    for (const { steps } of await contributions('start')) {
      for (const step of steps) await step.run(context)
    }

    const runner = await this.make(() => import('#core/jobs/runner'))
    const queues = await runner.work({ work: true, schedule: true })
    this.logger.info(`Job workers on ${queues.length} queue(s)`)

    const httpServer = await this.listen(settings.host, settings.port)
    const { serveMetricsPort } = await import('#core/metrics/endpoint')
    await serveMetricsPort(this.app)
    this.logger.success(
      `Listening on ${settings.publicUrl} (GET /v3, docs at /docs). Ctrl-C stops.`
    )

    // On SIGINT/SIGTERM the app terminates (bin/boot.ts). Registered after the
    // job runner's hook, so it runs before it: requests finish, then jobs stop.
    this.app.terminating(async () => {
      this.logger.info('Stopping: finishing requests and jobs…')
      await new Promise<void>((resolve) => httpServer.close(() => resolve()))
    })
  }

  private async listen(host: string, port: number): Promise<Server> {
    const server = await this.app.container.make('server')
    await server.boot()
    const httpServer = gracefulClose(createServer(server.handle.bind(server)))
    server.setNodeServer(httpServer)
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject)
      httpServer.listen(port, host, () => resolve())
    })
    return httpServer
  }
}
