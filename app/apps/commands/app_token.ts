import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { auditToStderr, idOf } from './command_input.js'

export default class AppToken extends AppCommand {
  static commandName = 'app:token'
  static description =
    'Issue a new access token for an app (shown once); its other tokens keep working'

  @args.string({ description: 'Id of the app' })
  declare appId: string

  @flags.string({ description: 'Name of the token (1 to 100 characters)' })
  declare name?: string

  @flags.string({ description: 'Expire after 30s, 15m, 12h, 90d… (default: never)' })
  declare expiresIn?: string

  @flags.boolean({ description: 'Print {"Id","AppId","Nombre","Token","Vence"} as JSON only' })
  declare json: boolean

  async run() {
    await auditToStderr(this.app)
    const id = idOf(this.appId)
    if (id === null) return this.fail('APP_ID must be a positive integer')
    const { durationSeconds } = await import('#apps/services/token_format')
    const seconds = this.expiresIn === undefined ? null : durationSeconds(this.expiresIn)
    if (this.expiresIn !== undefined && seconds === null) {
      return this.fail('--expires-in must be a number and a unit: 30s, 15m, 12h or 90d')
    }
    const name = this.name?.trim()
    if (name !== undefined && (name.length === 0 || name.length > 100)) {
      return this.fail('--name must have 1 to 100 characters')
    }
    const { default: IssueToken } = await import('#apps/services/issue_token')
    const issuer = await this.app.container.make(IssueToken)
    const result = await issuer.execute(id, { name: name ?? null, expiresInSeconds: seconds })
    if (!result.ok) return this.fail(`No app with id ${id}`)
    const { row, token } = result.value
    const { wireInstant } = await import('#apps/transformers/credential_transformer')
    const expires = row.expiresAt ? wireInstant(row.expiresAt) : null
    if (this.json) {
      const out = { Id: row.id, AppId: row.appId, Nombre: row.name, Token: token, Vence: expires }
      process.stdout.write(JSON.stringify(out) + '\n')
      return
    }
    this.logger.log(`Token ${row.id} for app ${id}${expires ? `, expires ${expires}` : ''}`)
    this.logger.log(`Token (shown once, store it now): ${token}`)
  }
}
