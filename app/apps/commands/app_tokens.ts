import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { auditToStderr, idOf } from './command_input.js'

export default class AppTokens extends AppCommand {
  static commandName = 'app:tokens'
  static description =
    "List an app's tokens: id, name, created, last used, expiry, revoked (never a secret)"

  @args.string({ description: 'Id of the app' })
  declare appId: string

  @flags.boolean({ description: 'Print [{"Id","Nombre","Creado","UltimoUso","Vence","Revocado"}]' })
  declare json: boolean

  async run() {
    await auditToStderr(this.app)
    const id = idOf(this.appId)
    if (id === null) return this.fail('APP_ID must be a positive integer')
    const { default: TokenReader } = await import('#apps/services/token_reader')
    const reader = await this.app.container.make(TokenReader)
    const tokens = await reader.ofApp(id)
    if (!tokens) return this.fail(`No app with id ${id}`)
    const { tokenListing } = await import('#apps/transformers/credential_transformer')
    const listed = tokens.map(tokenListing)
    if (this.json) {
      process.stdout.write(JSON.stringify(listed) + '\n')
      return
    }
    const table = this.ui.table()
    table.head(['Id', 'Name', 'Created', 'Last used', 'Expires', 'Revoked'])
    for (const token of listed) {
      table.row([
        String(token.Id),
        token.Nombre ?? '',
        token.Creado,
        token.UltimoUso ?? '-',
        token.Vence ?? 'never',
        token.Revocado ?? '-',
      ])
    }
    table.render()
  }
}
