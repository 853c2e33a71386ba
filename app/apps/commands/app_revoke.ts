import { args, flags } from '@adonisjs/core/ace'
import { AppsCommand } from './apps_command.js'
import { idOf } from '#core/commands/command_input'

export default class AppRevoke extends AppsCommand {
  static commandName = 'app:revoke'
  static description =
    'Revoke a token (TOKEN_ID), or every token of an app (--app APP_ID --all); 401 everywhere within 5 s'

  @args.string({ description: 'Id of the token', required: false })
  declare tokenId?: string

  // `app` is the command's application: the flag --app lands in `appOf`.
  @flags.string({
    flagName: 'app',
    description: 'Id of the app whose tokens to revoke (with --all)',
  })
  declare appOf?: string

  @flags.boolean({ description: 'Revoke every token of --app' })
  declare all: boolean

  async run() {
    const target = this.#target()
    if (typeof target === 'string') return this.fail(target)
    const revoker = await this.make(() => import('#apps/services/revoke_tokens'))
    const result = await revoker.execute(target)
    if (!result.ok) {
      return this.fail(
        result.reason === 'token_not_found'
          ? `No token with id ${'tokenId' in target ? target.tokenId : ''}`
          : `No app with id ${'appId' in target ? target.appId : ''}`
      )
    }
    const revoked = result.value.revoked
    this.logger.success(
      revoked.length > 0 ? `Revoked token(s): ${revoked.join(', ')}` : 'No token left to revoke'
    )
  }

  /** The command line as a target, or the one-line error. */
  #target(): { tokenId: number } | { appId: number } | string {
    if (this.appOf === undefined && !this.all) {
      const tokenId = idOf(this.tokenId)
      return tokenId === null ? 'TOKEN_ID must be a positive integer' : { tokenId }
    }
    if (this.tokenId !== undefined) return 'Give either TOKEN_ID or --app APP_ID --all, not both'
    if (!this.all) return '--app revokes every token of the app: add --all'
    const appId = idOf(this.appOf)
    return appId === null ? '--app must be a positive integer' : { appId }
  }
}
