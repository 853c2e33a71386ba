import { flags } from '@adonisjs/core/ace'
import { AppIdCommand } from './apps_command.js'

export default class AppTokens extends AppIdCommand {
  static commandName = 'app:tokens'
  static description =
    "List an app's tokens: id, name, created, last used, expiry, revoked (never a secret)"

  @flags.boolean({ description: 'Print [{"Id","Nombre","Creado","UltimoUso","Vence","Revocado"}]' })
  declare json: boolean

  protected async runFor(id: number) {
    const reader = await this.make(() => import('#apps/services/token_reader'))
    const tokens = await reader.ofApp(id)
    if (!tokens) return this.fail(`No app with id ${id}`)
    const { tokenListing } = await import('#apps/transformers/credential_transformer')
    const listed = tokens.map(tokenListing)
    if (this.json) return this.printJson(listed)
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
