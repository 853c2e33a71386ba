import { args } from '@adonisjs/core/ace'
import { AppCommand } from './app_command.js'

/** Writes the generated OpenAPI document to a file (npm run lint:openapi lints it). */
export default class OpenApiDump extends AppCommand {
  static commandName = 'openapi:dump'
  static description = 'Write the generated OpenAPI document (GET /v3/openapi.json) to a file'

  @args.string({ description: 'Output file', default: 'tmp/openapi.json' })
  declare file: string

  async run() {
    const { mkdir, writeFile } = await import('node:fs/promises')
    const { dirname } = await import('node:path')
    const { openApiDocument } = await import('#core/openapi/document')
    // The HTTP server commits the routes when it starts; a console process does it here.
    const router = await this.app.container.make('router')
    router.commit()
    const output = this.app.makePath(this.file)
    await mkdir(dirname(output), { recursive: true })
    await writeFile(output, JSON.stringify(await openApiDocument(), null, 2) + '\n')
    this.logger.success(`OpenAPI document written to ${this.file}`)
  }
}
