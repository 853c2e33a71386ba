import { args, flags } from '@adonisjs/core/ace'
import { AppCommand } from '#core/commands/app_command'
import { idOf } from '#core/commands/command_input'

/** Customer support (docs/spec.md §4.2 rule 1): lets an app see an already registered agency. */
export default class AgencyGrant extends AppCommand {
  static commandName = 'agency:grant'
  static description = 'Link an existing agency (by its admin e-mail) to an app'

  @args.string({ description: 'Administrator e-mail of the agency' })
  declare adminmail: string

  // Text, checked by idOf: a number flag lets 99999999999 reach the database.
  @flags.string({ flagName: 'app', description: 'Id of the app', required: true })
  declare appOf: string

  @flags.boolean({
    description: 'The app also receives catalogue and other listing-less inquiries',
  })
  declare otherLeads: boolean

  async run() {
    const appId = idOf(this.appOf)
    if (appId === null) return this.fail('--app must be an app id (a positive integer)')
    const grant = await this.make(() => import('#agencies/services/grant_agency'))
    const granted = await grant.execute(this.adminmail, appId, Boolean(this.otherLeads))
    if (!granted.ok) {
      return this.fail(
        granted.reason === 'agency_not_found'
          ? `No agency administered by ${this.adminmail}`
          : `No app ${appId}`
      )
    }
    this.logger.success(
      `Agency ${this.adminmail} linked to app ${appId}${this.otherLeads ? ' (receives other leads)' : ''}`
    )
  }
}
