import { flags } from '@adonisjs/core/ace'
import { AppIdCommand } from './apps_command.js'

export default class AppToken extends AppIdCommand {
  static commandName = 'app:token'
  static description =
    'Issue a new access token for an app (shown once); its other tokens keep working'

  @flags.string({ description: 'Name of the token (1 to 100 characters)' })
  declare name?: string

  @flags.string({ description: 'Expire after 30s, 15m, 12h, 90d… (default: never)' })
  declare expiresIn?: string

  @flags.boolean({ description: 'Print {"Id","AppId","Nombre","Token","Vence"} as JSON only' })
  declare json: boolean

  protected async runFor(id: number) {
    const { durationSeconds } = await import('#apps/services/token_format')
    const seconds = this.expiresIn === undefined ? null : durationSeconds(this.expiresIn)
    if (this.expiresIn !== undefined && seconds === null) {
      return this.fail('--expires-in must be a number and a unit: 30s, 15m, 12h or 90d')
    }
    const name = this.name?.trim()
    if (name !== undefined && (name.length === 0 || name.length > 100)) {
      return this.fail('--name must have 1 to 100 characters')
    }
    const { MAX_LIVE_TOKENS } = await import('#apps/services/issue_token')
    const issuer = await this.make(() => import('#apps/services/issue_token'))
    const result = await issuer.execute(id, { name: name ?? null, expiresInSeconds: seconds })
    if (!result.ok) {
      return this.fail(
        result.reason === 'token_limit'
          ? `App ${id} already holds ${MAX_LIVE_TOKENS} live tokens, the most: revoke one first (app:revoke TOKEN_ID)`
          : `No app with id ${id}`
      )
    }
    const { row, token } = result.value
    const { wireInstant } = await import('#apps/transformers/credential_transformer')
    const expires = row.expiresAt ? wireInstant(row.expiresAt) : null
    if (this.json) {
      return this.printJson({
        Id: row.id,
        AppId: row.appId,
        Nombre: row.name,
        Token: token,
        Vence: expires,
      })
    }
    this.logger.log(`Token ${row.id} for app ${id}${expires ? `, expires ${expires}` : ''}`)
    this.logger.log(`Token (shown once, store it now): ${token}`)
  }
}
